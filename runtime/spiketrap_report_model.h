//===- spiketrap_report_model.h - What every report format shows -*- C++
//-*-===//
//
// The spike records, read once and organised for the report writers: a
// spike's ancestors that also spiked are found by (thread, depth, start) and
// shown as levels of the deeper spike rather than on their own (PET's log);
// leaf spikes with identical stacks are grouped; each function gets its
// spike statistics. Built outside the hooks, so it may allocate.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_REPORT_MODEL_H
#define SPIKETRAP_REPORT_MODEL_H

#include "spiketrap_array.h"
#include "spiketrap_spikes.h"

#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

constexpr size_t kNone = SIZE_MAX;

struct FunctionStats {
  const spiketrap_desc *Desc;
  uint64_t Spikes; // records that end in this function
  uint64_t WorstNs, MedianNs, P95Ns;
  size_t Worst; // record index of the worst spike (kNone: never spiked)
};

// A thread's open calls when the report was written (uftrace's "remaining
// functions"): calls that have not returned, on threads still running.
struct OpenStack {
  uint32_t Tid;
  char Name[16];
  uint32_t Levels;
  size_t First; // its levels: openLevel(First + L)
};

// Leaf spikes with the same stack of functions.
struct StackGroup {
  size_t Worst; // record index
  size_t Times;
  size_t First; // of its Times records in leaf(): leaf(First + I)
};

class ReportModel {
public:
  // Reads the published records; false (after saying so) when out of memory.
  bool build();

  size_t size() const { return Count; }
  const SpikeRecord &record(size_t I) const { return *Records[I]; }
  // The record of level L of record I when that call spiked too, else kNone.
  size_t ownSpike(size_t I, uint32_t L) const;
  // Ticks of record I's duration spent in callees that spiked themselves.
  uint64_t childSpikeTicks(size_t I) const { return ChildTicks[I]; }
  // Shown as a level of a deeper spike rather than on its own.
  bool covered(size_t I) const { return Covered[I]; }

  // Distinct stacks of the leaf spikes, worst first.
  size_t numGroups() const { return NumGroups; }
  const StackGroup &group(size_t G) const { return Groups[G]; }
  // Record index of the I-th leaf spike, in group order.
  size_t leaf(size_t I) const { return Leaves[I]; }

  // Calls the hang watchdog saw stuck (hang records, oldest first), and the
  // record of each one's return, or kNone while it has not returned.
  size_t numHangs() const { return NumHangs; }
  const SpikeRecord &hang(size_t I) const { return *Hangs[I]; }
  size_t hangReturn(size_t I) const { return HangReturns[I]; }

  // Every thread's open calls when the model was built; Now: then, in ticks.
  size_t numOpen() const { return NumOpen; }
  const OpenStack &open(size_t I) const { return Open[I]; }
  const SpikeLevel &openLevel(size_t I) const { return OpenLevels[I]; }
  uint64_t builtAt() const { return Now; }

  // Every function in any stack (of a spike, a hang or an open call) or
  // named as a candidate, by id: those that
  // spiked first, worst first; then the rest (callers that never spiked).
  size_t numFunctions() const { return NumFunctions; }
  size_t numSpiking() const { return NumSpiking; }
  const FunctionStats &function(size_t Id) const { return Functions[Id]; }
  size_t functionId(const spiketrap_desc *D) const;

private:
  bool sameStack(size_t A, size_t B) const;
  bool buildFunctions();
  bool buildHangs();
  bool buildOpen();
  size_t findReturn(const SpikeRecord &Hang) const;

  // A record's identity as an ancestor of other spikes, sorted for ownSpike.
  struct Key {
    uint32_t Tid, Levels;
    uint64_t Start;
    size_t Index;
    bool operator<(const Key &O) const {
      if (Tid != O.Tid)
        return Tid < O.Tid;
      if (Levels != O.Levels)
        return Levels < O.Levels;
      return Start < O.Start;
    }
  };
  Array<const SpikeRecord *> Records; // oldest first
  Array<Key> Keys;
  Array<bool> Covered;
  Array<uint64_t> ChildTicks;
  Array<StackGroup> Groups;
  Array<size_t> Leaves;
  Array<FunctionStats> Functions;
  struct DescId {
    const spiketrap_desc *Desc;
    size_t Id;
  };
  Array<DescId> Ids; // sorted by Desc
  Array<const SpikeRecord *> Hangs;
  Array<size_t> HangReturns;
  Array<OpenStack> Open;
  Array<SpikeLevel> OpenLevels;
  size_t Count = 0, NumGroups = 0, NumFunctions = 0, NumSpiking = 0;
  size_t NumHangs = 0, NumOpen = 0, NumOpenLevels = 0;
  uint64_t Now = 0;
};

// The candidates of record R: callees of its spiking function that adaptive
// mode had switched off when the spike's time was in the function's own
// code. Calls F(const spiketrap_desc *) for each.
template <typename Fn> void forEachCandidate(const SpikeRecord &R, Fn F) {
  for (uint32_t I = 0; I < R.NumCandidates && I < kMaxCandidates; ++I)
    F(R.Candidates[I]);
}

// The functions with idle calls over their threshold (spiketrap_spikes.h),
// most calls first, into Out (sized kIdleFunctions); how many.
size_t sortedIdle(Array<const IdleFunction *> &Out);

// Threshold ticks as nanoseconds; kNever (an ignored frame) stays kNever.
uint64_t thresholdNs(uint64_t Ticks);
// Ticks since start-up as nanoseconds (0 for times before it).
uint64_t sinceStartNs(uint64_t Ticks);

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_MODEL_H
