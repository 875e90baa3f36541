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

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class BlockFrequencyInfo;
class CallBase;
class Function;
class Module;
} // namespace llvm

namespace spiketrap {

/// How a call can wait, from the cheapest to time to the one never to miss.
enum class WaitKind {
  None,
  /// Usually returns at once, waits sometimes: an uncontended lock, a
  /// buffered stream.
  FastPath,
  /// Enters the kernel every time: sleeping, I/O, joins, condition
  /// variables, system calls (inline asm included).
  Kernel,
};

/// How \p CB can wait: a call of a C library or C++ runtime function that
/// sleeps, locks, waits or does I/O, or inline assembly that makes a system
/// call.
WaitKind getWaitKind(const llvm::CallBase &CB);

/// A call whose block runs less than once in this many calls of its
/// function (by \p BFI's static estimate) is on a rare path.
inline constexpr uint64_t kRarePath = 8;

/// The strongest way \p F waits in a call of its own (after inlining); a
/// kernel wait on a rare path counts as a fast-path one. Not through its
/// callees: a caller that may reach a wait on a rare path (SQLite's parser
/// reaching a schema load) is often hot, and when it is switched off and a
/// wait below spikes, the spike still names the function that waited.
WaitKind getWaitKind(const llvm::Function &F,
                     const llvm::BlockFrequencyInfo &BFI);

/// The functions \p F calls directly for which \p Wanted holds, itself
/// excluded, each once, in the order of the calls.
llvm::SmallVector<llvm::Function *, 8>
getDirectCallees(llvm::Function &F,
                 llvm::function_ref<bool(const llvm::Function *)> Wanted);

} // namespace spiketrap

#endif // SPIKETRAP_BLOCKING_H
