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

/// The longest threshold anything accepts (attributes, lists, options): 24
/// hours. Longer means "never report it" (SPIKETRAP_IGNORE says that), and
/// the runtime turns thresholds into clock ticks (ns times the TSC's GHz) in
/// 64 bits: centuries would wrap around to a few seconds.
inline constexpr uint64_t MaxThresholdNs = 24ull * 3600 * 1000000000;
/// How MaxThresholdNs is written in messages and docs.
inline constexpr char MaxThresholdText[] = "24 hours";

/// Parses "250ns", "500us", "16.6ms", "1s" or a plain number of milliseconds
/// into \p Ns. Returns "" or what is wrong with \p S, for a
/// message: not a duration, 0 unless \p AllowZero, over MaxThresholdNs.
std::string parseThreshold(llvm::StringRef S, uint64_t &Ns, bool AllowZero);

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

/// How instrumented functions are switched on and off (-spiketrap-switch).
enum class SwitchMode {
  Sites, // patchable entry sites (Sites.h), where the target has them
  Flag,  // a thunk or hooks in place testing the off switch (Insert.h)
};

/// -spiketrap-switch; on a malformed value, warns through \p Ctx and
/// returns the default (Sites).
SwitchMode getSwitchMode(llvm::LLVMContext &Ctx);

/// The -spiketrap-list files, in command-line order.
llvm::ArrayRef<std::string> getListPaths();

/// -spiketrap-stats: print a one-line summary per module.
bool statsEnabled();

/// -spiketrap-inline-check: guard the hooks with the descriptor's off switch.
bool inlineCheckEnabled();

/// -spiketrap-split-body: time functions through a thunk (Insert.cpp).
bool splitBodyEnabled();

/// -spiketrap-late-probes: probes at conditional loops (Insert.cpp).
bool lateProbesEnabled();

/// -spiketrap-keep-callers: no sibling calls in instrumented functions
/// (Insert.cpp, keepCallers).
bool keepCallersEnabled();

} // namespace spiketrap

#endif // SPIKETRAP_OPTIONS_H
