//===- spiketrap_adaptive.cpp - Switching off calls that never spike ------===//
#include "spiketrap_adaptive.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_patch.h"
#include "spiketrap_thread.h"

namespace __spiketrap {

namespace {
// The skippable functions, in the order they were found. Written with one
// atomic add each (from hooks, so no lock), read by the report.
spiketrap_desc *Skippable[kMaxSkippable];
uint32_t NumSkippable;

// Switches D off (kOff, kOffWithProbes) or on (0): the code the pass emitted
// follows, a patchable site once the patcher has rewritten it.
void setOff(spiketrap_desc *D, uint32_t Off) {
  __atomic_store_n(&__spiketrap_desc_state(D)->off, Off, __ATOMIC_RELAXED);
  requestPatch(D);
}
} // namespace

void adaptLook(spiketrap_desc *D, uint64_t ThresholdTicks, bool Late) {
  uint64_t Thr = resolvedThreshold(ThresholdTicks);
  // Ignored functions are not about time; one whose calls come close (more
  // than 1 in kNearShare: a rare preemption does not count) stays timed.
  spiketrap_state *S = __spiketrap_desc_state(D);
  uint64_t Near = __atomic_load_n(&S->near_calls, __ATOMIC_RELAXED);
  uint64_t Calls = __atomic_load_n(&S->calls, __ATOMIC_RELAXED);
  if (Thr == kNever || Near * kNearShare > Calls)
    return;
  // Can block (the pass), spiked, or re-armed by a spike above it: stays
  // timed (for now).
  if (timedAt(D, Calls))
    return;
  // Several threads may look at once: one lists it.
  if (!__atomic_exchange_n(&S->skippable, uint16_t(1), __ATOMIC_RELAXED)) {
    uint32_t I = __atomic_fetch_add(&NumSkippable, 1, __ATOMIC_RELAXED);
    if (I < kMaxSkippable)
      __atomic_store_n(&Skippable[I], D, __ATOMIC_RELEASE);
  }
  if (flags.adaptive) {
    setOff(D, Late ? kOffWithProbes : kOff);
    // Its site at once (with whatever else is asked): a hot function would
    // otherwise pass the trampoline thousands of times until the next batch.
    applyPendingPatchesNow();
  }
}

namespace {
// The grant budget as a generic cell rate algorithm: the tick at which the
// budget is whole again, moved on by each grant (lock-free, signal-safe).
uint64_t BudgetFullAt;

// Takes kKeepCalls timed calls from the budget at Now (ticks), if it has them.
bool grant(uint64_t Now) {
  uint64_t PerSecond = theClock.TicksPerSecond;
  uint64_t Cost = kKeepCalls * PerSecond / kGrantCallsPerSecond;
  uint64_t Burst = kGrantBurstCalls * PerSecond / kGrantCallsPerSecond;
  uint64_t At = __atomic_load_n(&BudgetFullAt, __ATOMIC_RELAXED);
  for (;;) {
    uint64_t From = At > Now ? At : Now;
    if (From + Cost - Now > Burst)
      return false;
    if (__atomic_compare_exchange_n(&BudgetFullAt, &At, From + Cost, false,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      return true;
  }
}

// Keeps D timed for kKeepCalls more calls, within the budget.
bool keepTimed(spiketrap_desc *D, uint64_t Now) {
  // In looks, rounded up: the same looks see it timed as with a call count.
  spiketrap_state *S = __spiketrap_desc_state(D);
  uint64_t Looks = (__atomic_load_n(&S->calls, __ATOMIC_RELAXED) + kKeepCalls +
                    kAdaptEvery - 1) /
                   kAdaptEvery;
  uint32_t Until = Looks < SPIKETRAP_TIMED_ALWAYS ? uint32_t(Looks)
                                                  : SPIKETRAP_TIMED_ALWAYS - 1;
  if (Until <= __spiketrap_desc_timed_until(D))
    return true; // timed that long already (a wait, or kept just now)
  if (!grant(Now))
    return false;
  __atomic_store_n(&S->timed_until, Until, __ATOMIC_RELAXED);
  return true;
}

// Switches C back on for kKeepCalls calls, within the budget.
bool rearmOne(spiketrap_desc *C, uint64_t Now) {
  if (!keepTimed(C, Now))
    return false;
  uint16_t *Rearms = &__spiketrap_desc_state(C)->rearms;
  if (uint16_t N = __atomic_load_n(Rearms, __ATOMIC_RELAXED); N < 0xffff)
    __atomic_store_n(Rearms, uint16_t(N + 1), __ATOMIC_RELAXED);
  setOff(C, 0);
  return true;
}

// D spiked at End (ticks): keep it timed for kKeepCalls more calls, if the
// budget allows (switched back on if a late probe timed it).
void adaptKeep(spiketrap_desc *D, uint64_t End) {
  if (keepTimed(D, End) &&
      __atomic_load_n(&__spiketrap_desc_state(D)->off, __ATOMIC_RELAXED)) {
    setOff(D, 0);
    applyPendingPatchesNow();
  }
}
} // namespace

// Per spike, per dlclose, per report: built for size.
SPIKETRAP_MINSIZE_BEGIN
namespace {
// Switches D's switched-off callees back on, breadth first (nothing under a
// function that was not timed was timed either), kRearmMax at most, while
// the budget lasts. Returns how many.
uint32_t rearmBelow(spiketrap_desc *D, uint64_t End) {
  spiketrap_desc *Queue[kRearmMax];
  uint32_t Len = 0;
  const spiketrap_desc *From = D;
  for (uint32_t Head = 0; Len < kRearmMax; From = Queue[Head++]) {
    for (uint32_t I = 0; I < __spiketrap_desc_num_callees(From) && Len < kRearmMax; ++I) {
      spiketrap_desc *C = calleeAt(From, I);
      if (!__atomic_load_n(&__spiketrap_desc_state(C)->off, __ATOMIC_RELAXED))
        continue;
      if (!rearmOne(C, End))
        return Len; // the budget is spent
      Queue[Len++] = C;
    }
    if (Head == Len)
      break;
  }
  return Len;
}

} // namespace

uint32_t adaptRearmCallees(spiketrap_desc *D, uint64_t End) {
  // A function whose own code is slow (an interpreter loop, a sort) would
  // re-arm its callees at every spike: after kRearmSpikes, its self time is
  // taken for its own.
  uint16_t *Spikes = &__spiketrap_desc_state(D)->rearm_spikes;
  uint16_t N = __atomic_load_n(Spikes, __ATOMIC_RELAXED);
  if (N >= kRearmSpikes || !__spiketrap_desc_num_callees(D))
    return 0;
  __atomic_store_n(Spikes, uint16_t(N + 1), __ATOMIC_RELAXED);
  uint32_t Len = rearmBelow(D, End);
  // Their sites now, so the next call is timed.
  if (Len)
    applyPendingPatchesNow();
  return Len;
}

SpikeCandidates adaptSpike(const Frame &Top, uint64_t End) {
  auto *D = const_cast<spiketrap_desc *>(Top.Desc);
  // Time in the spiking function's own code may be time in callees adaptive
  // mode switched off: name them, and time them again so a spike that
  // recurs is caught at its own level.
  SpikeCandidates C;
  if ((End - Top.Start - Top.ChildTicks) * 2 >=
      resolvedThreshold(Top.Threshold)) {
    for (uint32_t I = 0; I < __spiketrap_desc_num_callees(D) && C.Num < kMaxCandidates; ++I)
      if (const spiketrap_desc *Callee = calleeAt(D, I); __atomic_load_n(
              &__spiketrap_desc_state(Callee)->off, __ATOMIC_RELAXED))
        C.Desc[C.Num++] = Callee;
    if (C.Num)
      adaptRearmCallees(D, End);
  }
  // A function that spiked is what we are looking for: keep timing it.
  adaptKeep(D, End);
  return C;
}

void adaptDetachRange(uintptr_t Lo, uintptr_t Hi) {
  uint32_t N = __atomic_load_n(&NumSkippable, __ATOMIC_RELAXED);
  for (uint32_t I = 0; I < N && I < kMaxSkippable; ++I) {
    uintptr_t D = uintptr_t(__atomic_load_n(&Skippable[I], __ATOMIC_ACQUIRE));
    if (D >= Lo && D < Hi)
      __atomic_store_n(&Skippable[I], nullptr, __ATOMIC_RELEASE);
  }
}

uint32_t numSkippable() {
  return __atomic_load_n(&NumSkippable, __ATOMIC_RELAXED);
}

const spiketrap_desc *skippableAt(uint32_t I) {
  return I < kMaxSkippable ? __atomic_load_n(&Skippable[I], __ATOMIC_ACQUIRE)
                           : nullptr;
}

SPIKETRAP_MINSIZE_END

} // namespace __spiketrap
