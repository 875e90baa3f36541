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
  // Several threads may look at once: one records it.
  if (__atomic_exchange_n(&D->skippable, 1u, __ATOMIC_RELAXED))
    return;
  uint32_t I = __atomic_fetch_add(&NumSkippable, 1, __ATOMIC_RELAXED);
  if (I < kMaxSkippable)
    __atomic_store_n(&Skippable[I], D, __ATOMIC_RELEASE);
  if (flags.adaptive)
    __atomic_store_n(&D->off, 1u, __ATOMIC_RELAXED);
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
    if (!D || !D->name)
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
