//===- Contexts.cpp - Fibers: context switches through the runtime --------===//
//
// Frames of calls open in a fiber lie on the fiber's own stack, where
// comparing addresses cannot tell them from dead ones: the runtime keeps a
// stack of open calls per ucontext, switched with the context. It has to
// see the switches, so calls of the C library's functions go to its twins
// (which call the real ones), rather than the runtime interposing the
// names: that works in static programs too, and never clashes with a
// program that defines them.
//
//===----------------------------------------------------------------------===//

#include "Contexts.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace spiketrap;

bool spiketrap::redirectContextSwitches(Module &M) {
  bool Changed = false;
  for (StringRef Name : {"swapcontext", "setcontext", "makecontext"}) {
    Function *F = M.getFunction(Name);
    // A definition is the program's own: not the C library's to follow.
    if (!F || !F->isDeclaration() || F->use_empty())
      continue;
    FunctionCallee Twin = M.getOrInsertFunction(("__spiketrap_" + Name).str(),
                                                F->getFunctionType());
    F->replaceAllUsesWith(Twin.getCallee());
    Changed = true;
  }
  return Changed;
}
