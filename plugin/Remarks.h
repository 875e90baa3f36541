//===- Remarks.h - Explaining every selection decision ----------*- C++ -*-===//

#ifndef SPIKETRAP_REMARKS_H
#define SPIKETRAP_REMARKS_H

#include "Types.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <string>

namespace llvm {
class Function;
class OptimizationRemarkEmitter;
class raw_ostream;
} // namespace llvm

namespace spiketrap {

/// "16.6ms", "100us", "250ns", "2s".
std::string formatDuration(uint64_t Ns);

/// An optimization remark under the pass name "spiketrap": instrumented
/// functions with their thresholds (-Rpass=spiketrap), skipped ones with the
/// reason (-Rpass-missed=spiketrap). Declarations and functions instrumented
/// by an earlier run get none.
void emitDecisionRemark(llvm::OptimizationRemarkEmitter &ORE,
                        const llvm::Function &F, const Decision &D,
                        uint64_t DefaultThresholdNs);

/// A missed remark for an instrumented function timed through a thunk (or
/// in place) because it cannot have a patchable site, with the reason.
void emitNoSiteRemark(llvm::OptimizationRemarkEmitter &ORE,
                      const llvm::Function &F, llvm::StringRef Why);

/// Decisions of one module, for -spiketrap-stats and LLVM's -stats.
class DecisionStats {
  unsigned Counts[unsigned(Verdict::TooSmall) + 1] = {};
  unsigned Sites = 0, Split = 0;

public:
  void count(Verdict V);
  /// An instrumented function timed through a patchable site (Sites.h).
  void countSite();
  /// An instrumented function timed through a thunk (Insert.h).
  void countSplit();
  /// One line: "spiketrap: <module>: N of M functions instrumented (S
  /// through a patchable site, K through a thunk); ...".
  void print(llvm::raw_ostream &OS, llvm::StringRef Module) const;
};

} // namespace spiketrap

#endif // SPIKETRAP_REMARKS_H
