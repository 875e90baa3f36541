//===- Heuristics.h - Size rules for functions nobody chose -----*- C++ -*-===//

#ifndef SPIKETRAP_HEURISTICS_H
#define SPIKETRAP_HEURISTICS_H

#include "Options.h"
#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace spiketrap {

/// What the size rules look at.
struct FunctionShape {
  unsigned Instructions = 0; // IR instructions, debug intrinsics excluded
  bool HasLoop = false;      // any cycle in the CFG, irreducible ones too
  bool HasCalls = false;     // calls other than cheap intrinsics
};

FunctionShape measureFunction(const llvm::Function &F);

/// Why the size rules skip a function of shape \p S ("" if they keep it);
/// \p Leaf is set when the leaf rule, not the size rule, decided.
std::string getHeuristicSkipReason(const FunctionShape &S,
                                   const HeuristicOptions &Opts, bool &Leaf);

/// Why the size rules keep a function of shape \p S, for remarks.
std::string getHeuristicKeepReason(const FunctionShape &S,
                                   const HeuristicOptions &Opts);

} // namespace spiketrap

#endif // SPIKETRAP_HEURISTICS_H
