//===- Heuristics.cpp - Size rules for functions nobody chose -------------===//
//
// Straight-line code that calls nothing finishes in about the time timing it
// would take, so it is skipped. Everything else can be slow: a loop can run
// for any time, and a call, however small its caller, can block or reach
// code that does. The size rule (-spiketrap-min-instructions) is opt-in: it
// hides small wrappers that block (issue 11).
//
//===----------------------------------------------------------------------===//

#include "Heuristics.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace spiketrap;

/// Whether \p I can take time beyond its own few cycles.
static bool isCall(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  // memcpy/memset become library calls and scale with their size.
  if (isa<MemIntrinsic>(CB))
    return true;
  // Other intrinsics are instructions in disguise; inline asm is not one.
  return !isa<IntrinsicInst>(CB);
}

FunctionShape spiketrap::measureFunction(const Function &F) {
  FunctionShape S;
  for (const BasicBlock &BB : F) {
    S.Instructions += BB.sizeWithoutDebug();
    for (const Instruction &I : BB)
      S.HasCalls |= isCall(I);
  }
  // A DFS back edge means a cycle; LoopInfo would miss irreducible ones.
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  S.HasLoop = !BackEdges.empty();
  return S;
}

std::string spiketrap::getHeuristicSkipReason(const FunctionShape &S,
                                              const HeuristicOptions &Opts,
                                              bool &Leaf) {
  Leaf = false;
  // A loop can run for any time, whatever the function's size.
  if (S.HasLoop && Opts.LoopsExempt)
    return "";
  // Straight-line code that calls nothing cannot spike by itself.
  if (Opts.SkipLeaves && !S.HasLoop && !S.HasCalls) {
    Leaf = true;
    return "leaf: no loop and no calls (-spiketrap-skip-leaves)";
  }
  if (S.Instructions < Opts.MinInstructions)
    return ("too small: " + Twine(S.Instructions) +
            " IR instructions < -spiketrap-min-instructions=" +
            Twine(Opts.MinInstructions) +
            (S.HasLoop ? ", loops not exempt (-spiketrap-loops=false)"
                       : ", no loop"))
        .str();
  return "";
}

std::string spiketrap::getHeuristicKeepReason(const FunctionShape &S,
                                              const HeuristicOptions &Opts) {
  if (S.HasLoop && Opts.LoopsExempt)
    return "has a loop";
  // What it calls can take any time, however small the function is.
  if (S.HasCalls && !Opts.MinInstructions)
    return "makes calls";
  return (Twine(S.Instructions) + " IR instructions").str();
}
