//===- Insert.h - The insert stage: hooks, thunk, exits ---------*- C++ -*-===//
//
// Turns a function the Selector picked, with its descriptor, into a timed
// one: the thunk and the moved body, or hooks in place; an exit hook on
// every way out, exceptions included; late probes for adaptive mode.
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_INSERT_H
#define SPIKETRAP_INSERT_H

#include "Descriptor.h"
#include "llvm/IR/DerivedTypes.h"

namespace llvm {
class Function;
class GlobalVariable;
class Module;
class StructType;
class Triple;
} // namespace llvm

namespace spiketrap {

/// The runtime's entry points, declared in the module being instrumented.
struct Hooks {
  llvm::FunctionCallee Enter, EnterLate, Exit;
};

/// Declares the hooks in \p M (nounwind: the runtime never throws).
Hooks declareHooks(llvm::Module &M);

/// Times \p F with the descriptor \p Desc and its state \p St: calls
/// __spiketrap_enter at its entry and __spiketrap_exit wherever it returns or
/// an exception leaves it, through a thunk when its body can move, else in
/// place; with \p Probes, late probes before its rare loops. Returns whether
/// \p F became a thunk.
bool insertHooks(llvm::Function &F, llvm::GlobalVariable *Desc,
                 const StateRef &St, const Hooks &H, const llvm::Triple &TT,
                 bool Probes);

/// Keeps every call in \p F a call, never a jump: clears the `tail` marker
/// of its calls (not `musttail`, which must stay one) and forbids the
/// backend's sibling calls (the library calls it makes itself too). A
/// function that ends by calling another stays on the stack under it, so
/// the callee's spike, and the samples of code it calls, show it. Returns
/// whether anything changed.
bool keepCallers(llvm::Function &F);

} // namespace spiketrap

#endif // SPIKETRAP_INSERT_H
