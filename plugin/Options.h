//===- Options.h - SpikeTrap command line options ---------------*- C++ -*-===//

#ifndef SPIKETRAP_OPTIONS_H
#define SPIKETRAP_OPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace spiketrap {

/// Parses "250ns", "500us", "16.6ms", "1s" or a plain number of milliseconds.
std::optional<uint64_t> parseDurationNs(llvm::StringRef S);

/// The -spiketrap-default-threshold value in ns; on a malformed value, warns
/// through \p Ctx and returns 0 (inherit the runtime's global threshold).
uint64_t getDefaultThresholdNs(llvm::LLVMContext &Ctx);

/// The size and shape rules that pick functions nobody chose explicitly.
struct HeuristicOptions {
  bool InstrumentAll;       // -spiketrap-instrument-all
  unsigned MinInstructions; // -spiketrap-min-instructions
  bool LoopsExempt;         // -spiketrap-loops
  bool SkipLeaves;          // -spiketrap-skip-leaves
};

/// The heuristic options; a malformed -spiketrap-min-instructions keeps its
/// default (and, with \p Diagnose, warns through \p Ctx).
HeuristicOptions getHeuristicOptions(llvm::LLVMContext &Ctx, bool Diagnose);

/// The -spiketrap-list files, in command-line order.
llvm::ArrayRef<std::string> getListPaths();

/// -spiketrap-stats: print a one-line summary per module.
bool statsEnabled();

/// -spiketrap-inline-check: guard the hooks with the descriptor's off switch.
bool inlineCheckEnabled();

/// -spiketrap-split-body: time functions through a thunk (SplitBody.h).
bool splitBodyEnabled();

} // namespace spiketrap

#endif // SPIKETRAP_OPTIONS_H
