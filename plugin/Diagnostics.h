//===- Diagnostics.h - SpikeTrap compile-time messages ----------*- C++ -*-===//

#ifndef SPIKETRAP_DIAGNOSTICS_H
#define SPIKETRAP_DIAGNOSTICS_H

#include "llvm/IR/DiagnosticInfo.h"

namespace llvm {
class LLVMContext;
class Twine;
} // namespace llvm

namespace spiketrap {

/// Reports \p Msg through the context's diagnostic handler, so clang prints it
/// as a warning or error (an error fails the compile) and opt prints it too.
/// The text starts with "spiketrap: ".
void diagnose(llvm::LLVMContext &Ctx, llvm::DiagnosticSeverity Severity,
              const llvm::Twine &Msg);

} // namespace spiketrap

#endif // SPIKETRAP_DIAGNOSTICS_H
