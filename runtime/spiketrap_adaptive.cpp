//===- spiketrap_adaptive.cpp - Switching off calls that never spike ------===//
#include "spiketrap_adaptive.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_thread.h"

namespace __spiketrap {

namespace {
// The skippable functions, in the order they were found. Written with one
// atomic add each (from hooks, so no lock), read by the report.
constexpr uint32_t kMaxSkippable = 1 << 16;
spiketrap_desc *Skippable[kMaxSkippable];
uint32_t NumSkippable;
} // namespace

void adaptLook(spiketrap_desc *D, uint64_t ThresholdTicks) {
  uint64_t Thr = ThresholdTicks ? ThresholdTicks : globalThresholdTicks;
  // Ignored functions are not about time; one whose calls come close (more
  // than 1 in kNearShare: a rare preemption does not count) stays timed.
  uint64_t Near = __atomic_load_n(&D->near_calls, __ATOMIC_RELAXED);
  uint64_t Calls = __atomic_load_n(&D->calls, __ATOMIC_RELAXED);
  if (Thr == kNever || Near * kNearShare > Calls)
    return;
  // Can block (the pass), spiked, or re-armed by a spike above it: stays
  // timed (for now).
  if (Calls < __atomic_load_n(&D->timed_until, __ATOMIC_RELAXED))
    return;
  // Several threads may look at once: one lists it.
  if (!__atomic_exchange_n(&D->skippable, 1u, __ATOMIC_RELAXED)) {
    uint32_t I = __atomic_fetch_add(&NumSkippable, 1, __ATOMIC_RELAXED);
    if (I < kMaxSkippable)
      __atomic_store_n(&Skippable[I], D, __ATOMIC_RELEASE);
  }
  if (flags.adaptive)
    __atomic_store_n(&D->off, 1u, __ATOMIC_RELAXED);
}

void adaptKeep(spiketrap_desc *D) {
  __atomic_store_n(&D->timed_until, UINT64_MAX, __ATOMIC_RELAXED);
}

namespace {
// Re-arms D's switched-off callees and, below each, theirs: nothing under a
// function that was not timed was timed either. Bounded in depth and count
// (Budget), as it runs in the exit hook of a spike.
uint32_t rearm(const spiketrap_desc *D, uint32_t Depth, uint32_t &Budget) {
  uint32_t Rearmed = 0;
  for (uint32_t I = 0; I < D->num_callees && Budget; ++I) {
    spiketrap_desc *C = calleeAt(D, I);
    if (!__atomic_load_n(&C->off, __ATOMIC_RELAXED))
      continue;
    // Timed again for a while, longer each time: a spike that recurs is
    // caught at its own level, a callee that never spikes goes off again.
    uint32_t N = __atomic_fetch_add(&C->rearms, 1, __ATOMIC_RELAXED);
    uint64_t Calls = __atomic_load_n(&C->calls, __ATOMIC_RELAXED);
    uint64_t Until = Calls + (kRearmCalls << (N < 8 ? N : 8));
    if (Until > __atomic_load_n(&C->timed_until, __ATOMIC_RELAXED))
      __atomic_store_n(&C->timed_until, Until, __ATOMIC_RELAXED);
    __atomic_store_n(&C->off, 0u, __ATOMIC_RELAXED);
    ++Rearmed, --Budget;
    if (Depth < kRearmDepth)
      Rearmed += rearm(C, Depth + 1, Budget);
  }
  return Rearmed;
}
} // namespace

uint32_t adaptRearmCallees(const spiketrap_desc *D) {
  uint32_t Budget = kRearmMax;
  return rearm(D, 0, Budget);
}

void adaptDetachRange(uintptr_t Lo, uintptr_t Hi) {
  uint32_t N = __atomic_load_n(&NumSkippable, __ATOMIC_RELAXED);
  for (uint32_t I = 0; I < N && I < kMaxSkippable; ++I) {
    uintptr_t D = uintptr_t(__atomic_load_n(&Skippable[I], __ATOMIC_ACQUIRE));
    if (D >= Lo && D < Hi)
      __atomic_store_n(&Skippable[I], nullptr, __ATOMIC_RELEASE);
  }
}

void writeSkipList(Buffer &B, const ReportModel &) {
  uint32_t N = __atomic_load_n(&NumSkippable, __ATOMIC_RELAXED);
  B.format("# spiketrap skip list: functions called at least {} times of "
           "which at most 1 in {}\n# took 1/{} of their threshold. Compile "
           "with -mllvm -spiketrap-list=<this file>\n# to leave them out; a "
           "spike below one is reported at its nearest timed caller.\n",
           kAdaptEvery, kNearShare, kCloseRatio);
  if (N > kMaxSkippable)
    B.format("# ({} more not listed: the table is full)\n", N - kMaxSkippable);
  B.format("[never]\n");
  for (uint32_t I = 0; I < N && I < kMaxSkippable; ++I) {
    const spiketrap_desc *D = __atomic_load_n(&Skippable[I], __ATOMIC_ACQUIRE);
    // Kept timed in the end (spiked, re-armed as a candidate): not for a
    // list that would hide it for good.
    if (!D || !D->name || D->rearms || D->timed_until == UINT64_MAX)
      continue;
    B.format("# {} calls, {} near the threshold",
             __atomic_load_n(&D->calls, __ATOMIC_RELAXED),
             __atomic_load_n(&D->near_calls, __ATOMIC_RELAXED));
    if (D->file && D->file[0])
      B.format(", {}:{}", D->file, D->line);
    B.format("\nfun:");
    formatListName(B, D->name);
    B.push_back('\n');
  }
}

} // namespace __spiketrap
