//===- Selection.h - Which functions to instrument, and how -----*- C++ -*-===//
//
// Combines the user's explicit choices (attributes, filter lists) with the
// size heuristics into one decision per function, with the reason for it.
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_SELECTION_H
#define SPIKETRAP_SELECTION_H

#include "Options.h"
#include "Types.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace spiketrap {

class FilterLists;

/// Decides, for every function of one module, whether and how to time it.
class Selector {
  llvm::DenseMap<const llvm::Function *, Selection> Annotated;
  /// Functions this module starts threads with: like main, the root of
  /// their thread's stacks.
  llvm::SmallPtrSet<const llvm::Function *, 4> ThreadStarts;
  const FilterLists &Lists;
  HeuristicOptions Heuristics;

public:
  /// Reads the module's annotations and the filter lists; with \p Diagnose,
  /// reports malformed ones as errors (once per module, not per pass).
  Selector(llvm::Module &M, bool Diagnose);
  /// What attributes and lists say about \p F (no heuristics).
  Selection select(const llvm::Function &F) const;
  Decision decide(llvm::Function &F) const;
};

} // namespace spiketrap

#endif // SPIKETRAP_SELECTION_H
