//===- spiketrap_adaptive.h - Switching off never-spiking calls -*- C++ -*-===//
//
// Most instrumented calls are short and stay short. The exit hook counts the
// calls that take 1/kCloseRatio of their threshold or more ("near"); every
// kLookEvery calls of a function the enter hook takes a look: a function
// with at most one near call in kNearShare is skippable. With
// adaptive=1 its descriptor's `off` is set, and the code the pass emits
// stops calling the hooks for it; a spike below it is then reported at its
// nearest caller still timed, which names it as a candidate and re-arms it.
// Functions that wait (the pass says) or that spiked stay timed longer.
// skip_list= writes the skippable functions as a list file, so the next
// compile leaves them out entirely.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_ADAPTIVE_H
#define SPIKETRAP_ADAPTIVE_H

#include "spiketrap.h"
#include "spiketrap_defs.h"
#include "spiketrap_record.h"

#include <stdint.h>

namespace __spiketrap {

// The unit of timed_until and of the calls a spike keeps timed. A power of
// two; 4096 from the sweep in docs/performance.md: 1024 switches off a
// function with one near call in 500 at its first look 39% of the time
// (4096: 9%, 16384: 0.1%).
constexpr uint64_t kAdaptEvery = 4096;
static_assert(kAdaptEvery == 4096,
              "spiketrap_descriptor.inc: timed_until counts looks of 4096 calls");
// How often the enter hook looks (a power of two: a mask test). Learning is
// most of what the default costs a short run (every function timed until
// its first look), so the first look comes after 512 calls: a function is
// switched off then if none of them came near (more than 1 in kNearShare
// keeps it timed, at every look). One that comes near rarely may be
// switched off on that thinner evidence; its next spike is still named, by
// the samples of its caller's spike, which also times it again
// (docs/performance.md, "Learning").
constexpr uint64_t kLookEvery = 512;
static_assert(kAdaptEvery % kLookEvery == 0, "looks fall on timed_until's units");
// Late probes (plugin/Insert.cpp) are looked at more often: a function already
// switched off whose probed loop is common need not pay 4096 more timed
// calls to be switched off again.
constexpr uint64_t kLateLookEvery = 512;
constexpr uint64_t kCloseRatio = 20;  // "near": 1/kCloseRatio of the threshold
constexpr uint64_t kNearShare = 1024; // skippable: at most 1 near call in this

// spiketrap_state::off: timed (0), switched off (1: the pass's late probes
// still time a call from a rarely taken loop on), or switched off with its
// probes (2).
constexpr uint32_t kOff = 1, kOffWithProbes = 2;

// The look, from the enter hook (cold). ThresholdTicks: the frame's own or
// inherited threshold, 0 for the global one. Late: a look at the calls its
// late probes timed, which switches the probes off too.
void adaptLook(spiketrap_desc *D, uint64_t ThresholdTicks, bool Late = false);

// A function that spiked, or was re-armed, stays timed for at least this
// many more calls: long enough for a spike that recurs to be caught at its
// own level, short enough that a hot function a preemption happened to hit
// costs little (at most this many timed calls, ~1 ms).
constexpr uint64_t kKeepCalls = 16 * kAdaptEvery;
// A spike re-arms at most kRearmMax functions, breadth first below the
// spiking one; a function's spikes re-arm kRearmSpikes times at most.
constexpr uint32_t kRearmMax = 8, kRearmSpikes = 2;
// Keeping and re-arming grant timed calls from one budget, whatever the
// spike rate (on a loaded machine preemption makes spikes everywhere):
// kGrantCallsPerSecond on average, ~1% of a core at ~18 ns a timed call, and
// up to kGrantBurstCalls at once (8 grants), so a program's first spikes
// are always followed up.
constexpr uint64_t kGrantCallsPerSecond = 1 << 19;
constexpr uint64_t kGrantBurstCalls = 8 * kKeepCalls;

// Whether adaptive mode keeps D timed at its Calls-th call
// (spiketrap_state::timed_until counts looks).
inline bool timedAt(const spiketrap_desc *D, uint64_t Calls) {
  uint32_t Until = __spiketrap_desc_timed_until(D);
  return Until == SPIKETRAP_TIMED_ALWAYS ||
         Calls < uint64_t(Until) * kAdaptEvery;
}

// The descriptor of D's I-th direct callee (spiketrap_desc::callees).
inline spiketrap_desc *calleeAt(const spiketrap_desc *D, uint32_t I) {
  const int32_t *E = &__spiketrap_desc_callees(D)[I];
  return reinterpret_cast<spiketrap_desc *>(
      const_cast<char *>(reinterpret_cast<const char *>(E) + *E));
}

// Adaptive mode's decision on a spike, made before it is recorded: the call
// of frame Top ran over its threshold, ending at End (ticks). A function
// that spiked is what we are looking for: it stays timed for kKeepCalls
// more calls, if the budget allows (switched back on if a late probe timed
// it). When at least half its threshold was its own time, that time may be
// in direct callees adaptive mode had switched off: they are returned as
// the spike's candidates and switched back on (with theirs, below: see
// kRearmMax), so a spike in one of them is caught at its own level next
// time.
SpikeCandidates adaptSpike(const Frame &Top, uint64_t End);

// Time spent in D's own code (or in code it calls that is not timed) made a
// spike, or passes its threshold now (the watcher's look): switch its
// switched-off callees back on (and theirs, below), so a spike in one of
// them is caught at its own level (bounded: see kRearmMax). End: the
// spike's end or now, in ticks. Returns how many.
uint32_t adaptRearmCallees(spiketrap_desc *D, uint64_t End);

// Before a shared object is unloaded: forget its descriptors.
void adaptDetachRange(uintptr_t Lo, uintptr_t Hi);

// The functions found skippable, for skip_list= (spiketrap_report_lists.cpp):
// how many were found (may exceed kMaxSkippable: the table is full), and the
// I-th in the order found (null past the table, or once its shared object
// was unloaded).
constexpr uint32_t kMaxSkippable = 1 << 16;
uint32_t numSkippable();
const spiketrap_desc *skippableAt(uint32_t I);

} // namespace __spiketrap

#endif // SPIKETRAP_ADAPTIVE_H
