//===- Unwind.h - Exit hooks on exception paths ------------------*- C++ -*-===//
#ifndef SPIKETRAP_UNWIND_H
#define SPIKETRAP_UNWIND_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace spiketrap {

/// Makes an exception that unwinds out of \p F pass an exit hook, which
/// clang's -finstrument-functions never does (llvm-project issue 121151):
/// \p EmitExit(Before) is called for every `resume`, including the one of a
/// cleanup landing pad that calls which may throw are turned into invokes
/// of. Returns whether \p F changed.
bool instrumentUnwindPaths(
    llvm::Function &F, llvm::function_ref<void(llvm::Instruction *)> EmitExit);

} // namespace spiketrap

#endif // SPIKETRAP_UNWIND_H
