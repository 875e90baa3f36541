//===- Annotations.h - spiketrap.* source annotations -----------*- C++ -*-===//

#ifndef SPIKETRAP_ANNOTATIONS_H
#define SPIKETRAP_ANNOTATIONS_H

#include "Types.h"
#include "llvm/ADT/DenseMap.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace spiketrap {

/// Reads the SPIKETRAP_* attribute macros of spiketrap.h, which clang stores
/// in llvm.global.annotations, into \p Out. With \p Diagnose, a malformed one
/// (unknown key, missing, extra or negative value) is a compile error naming
/// the annotation's file and line; it is ignored either way.
void readAnnotations(llvm::Module &M,
                     llvm::DenseMap<const llvm::Function *, Selection> &Out,
                     bool Diagnose);

} // namespace spiketrap

#endif // SPIKETRAP_ANNOTATIONS_H
