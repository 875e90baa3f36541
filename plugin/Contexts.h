//===- Contexts.h - Fibers: context switches through the runtime -*- C++ -*-===//
//
// A program's ucontext switches (swapcontext, setcontext, makecontext) go
// through the runtime, which keeps a stack of open calls per context
// (runtime/spiketrap_fibers.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_CONTEXTS_H
#define SPIKETRAP_CONTEXTS_H

namespace llvm {
class Module;
} // namespace llvm

namespace spiketrap {

/// Sends every use of the C library's swapcontext, setcontext and
/// makecontext in \p M to the runtime's __spiketrap_ twins. Returns whether
/// anything changed.
bool redirectContextSwitches(llvm::Module &M);

} // namespace spiketrap

#endif // SPIKETRAP_CONTEXTS_H
