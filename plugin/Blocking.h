//===- Blocking.h - Functions that can wait, and who calls whom -*- C++ -*-===//
//
// Adaptive mode switches off functions whose calls never come near their
// threshold. A function that can block (sleep, lock, I/O) may wait once in a
// thousand calls for far longer than its threshold: it must stay timed, or
// that one wait is charged to its caller. And when time turns up in a timed
// function's own code, the runtime needs to know which switched-off functions
// it calls (the candidates), so it can name them and time them again.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_BLOCKING_H
#define SPIKETRAP_BLOCKING_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class CallBase;
class Function;
class Module;
} // namespace llvm

namespace spiketrap {

/// Whether \p CB may block: a call of a C library or C++ runtime function
/// that sleeps, locks, waits or does I/O, or inline assembly that makes a
/// system call.
bool isBlockingCall(const llvm::CallBase &CB);

/// The functions defined in \p M that can block, by a call of their own or
/// through direct calls of other functions defined in \p M.
llvm::DenseSet<const llvm::Function *> findBlockingFunctions(llvm::Module &M);

/// The functions \p F calls directly for which \p Wanted holds, itself
/// excluded, each once, in the order of the calls.
llvm::SmallVector<llvm::Function *, 8>
getDirectCallees(llvm::Function &F,
                 llvm::function_ref<bool(const llvm::Function *)> Wanted);

} // namespace spiketrap

#endif // SPIKETRAP_BLOCKING_H
