//===- spiketrap_report_model.h - What the report formats show --*- C++ -*-===//
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
#include "spiketrap_symbols.h"

#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

constexpr size_t kNone = SIZE_MAX;

struct FunctionStats {
  const spiketrap_desc *Desc;
  uint64_t Spikes; // records that end in this function
  uint64_t WorstNs, MedianNs, P95Ns;
  size_t Worst; // record index of the worst spike (kNone: never spiked)
  uint64_t CulpritSpikes; // of Spikes, those that are culprits (Blame)
  // All its spikes, recorded or not, and the longest of them: with those
  // a full arena dropped (lostFunctions()).
  uint64_t AllSpikes, AllWorstNs;
};

// How a spike's time is explained (docs/report-format.md, "Culprit first"):
// by its own code, by its waits in the C library, by the untimed code its
// samples agree on, or by its thread waiting for a CPU (preempted).
enum class BlameHow : uint8_t { Own, Waits, Sampled, Preempted };

// Which spike a spike's time is blamed on. A spike is a culprit when no
// callee of it spiked, or when its own time (its active time less its
// spiking callees') is over its threshold; any other spike is blamed on the
// culprit below it with the most time (an incident: one culprit and the
// chain of callers that spiked only because of it).
struct Blame {
  size_t Spike;               // the culprit record (I itself when a culprit)
  const spiketrap_desc *Desc; // the function blamed: Spike's, or sampled
  BlameHow How;
};

// A row of the summary: the culprit spikes of one function blamed on one
// function (itself, or the untimed code its samples name), worst first.
struct CulpritRow {
  const spiketrap_desc *Fn;      // the spiking function of the culprits
  const spiketrap_desc *Blamed;  // what the row is named by
  uint64_t Spikes, WorstNs, MedianNs, P95Ns;
  size_t Worst; // record index: its chain of callers is the row's
};

// A thread's open calls when the report was written (uftrace's "remaining
// functions"): calls that have not returned, on threads still running.
struct OpenStack {
  uint32_t Tid;
  char Name[16];
  uint32_t Levels;
  size_t First;  // its levels: openLevel(First + L)
  uint32_t Past; // calls open beyond the Levels kept (past kMaxDepth)
};

// A frame sampling found on a spike's stack (spiketrap_sampler.h), as the
// writers show it: a function that ran untimed, named by a descriptor (its
// own, or one made for its symbol: SPIKETRAP_DESC_SYMBOL).
struct SampledLevel {
  const spiketrap_desc *Desc;
  uint32_t After;   // the record's timed level it lies below
  uint32_t Culprit; // below the spiking call: where the samples agreed
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
  // Nanoseconds of record I's duration spent in callees that spiked
  // themselves.
  uint64_t childSpikeNs(size_t I) const;
  // Shown as a level of a deeper spike rather than on its own.
  bool covered(size_t I) const { return Covered[I]; }
  // Record I's sampled frames, outermost first.
  size_t numSampled(size_t I) const {
    return SampledFirst[I + 1] - SampledFirst[I];
  }
  const SampledLevel &sampled(size_t I, size_t K) const {
    return Sampled[SampledFirst[I] + K];
  }
  // The deepest frame record I's samples agree on, or null (also when it
  // was late by preemption: the samples saw the rest).
  const spiketrap_desc *sampledCulprit(size_t I) const {
    size_t N = numSampled(I);
    return N && sampled(I, N - 1).Culprit && !Preempted[I]
               ? sampled(I, N - 1).Desc
               : nullptr;
  }
  // Record I's own time (its active time less that of its callees that
  // spiked, blamed on their own), and the part of it its thread waited for
  // a CPU (its preemption less theirs).
  uint64_t ownTicks(size_t I) const;
  uint64_t ownPreemptedNs(size_t I) const;
  // Record I's self time (selfNs) less its own preemption: what it ran.
  uint64_t selfRunningNs(size_t I) const;
  // Record I was late by its preemption: it was 3/4 of its own time at
  // least, and without it its own time was within its threshold.
  bool preempted(size_t I) const { return Preempted[I]; }
  // Record I's call lasted most of the run so far (9/10 of the time since
  // start-up): the program's driver, say a benchmark's run() waiting for
  // its threads, not a spike to fix first. Its rows and stacks come last.
  bool wholeRun(size_t I) const { return WholeRun[I]; }

  // What record I's time is blamed on (one decision, every writer reads it).
  const Blame &blame(size_t I) const { return Blames[I]; }
  // The record of the nearest caller of record I that spiked too (kNone).
  size_t parent(size_t I) const;
  // The summary's rows, worst first: incidents named by their culprits.
  size_t numRows() const { return NumRows; }
  const CulpritRow &row(size_t R) const { return Rows[R]; }

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

  // Every thread's open calls when the model was built, and when that was
  // (since start-up); how long level V had been open then.
  size_t numOpen() const { return NumOpen; }
  const OpenStack &open(size_t I) const { return Open[I]; }
  const SpikeLevel &openLevel(size_t I) const { return OpenLevels[I]; }
  uint64_t builtAtNs() const;
  uint64_t openNs(const SpikeLevel &V) const;

  // Every function in any stack (of a spike, a hang or an open call) or
  // named as a candidate, by id: those that
  // spiked first, worst first; then the rest (callers that never spiked).
  size_t numFunctions() const { return NumFunctions; }
  size_t numSpiking() const { return NumSpiking; }
  const FunctionStats &function(size_t Id) const { return Functions[Id]; }
  size_t functionId(const spiketrap_desc *D) const;

private:
  bool sameStack(size_t A, size_t B) const;
  int compareSampled(size_t A, size_t B) const;
  bool buildSampled();
  bool buildBlame();
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
  Array<uint64_t> ChildActive, ChildStall; // of the callees that spiked
  Array<uint64_t> ChildPreempted;          // theirs, in ns
  Array<bool> Preempted; // late by preemption (blame's rule)
  Array<bool> WholeRun;  // lasted most of the run (wholeRun)
  Array<Blame> Blames;
  Array<CulpritRow> Rows;
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
  Array<size_t> SampledFirst; // Count + 1
  Array<SampledLevel> Sampled;
  Symbolizer Syms;
  size_t Count = 0, NumRows = 0, NumGroups = 0, NumFunctions = 0, NumSpiking = 0;
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

// The times of a record in nanoseconds, as every format shows them: the
// records hold the clock's ticks, and only the model converts them. Points
// in time count from start-up (0 for times before it); a threshold of
// kNever (an ignored frame) stays kNever.
uint64_t durationNs(const SpikeRecord &R); // its spiking call (a hang: open)
uint64_t endNs(const SpikeRecord &R);      // the spike's end, a hang's look
uint64_t selfNs(const SpikeRecord &R);     // in its spiking call's own code
uint64_t longestWaitNs(const SpikeRecord &R);
// How long R's spiking call waited for a CPU while runnable
// (kernel_events=1: the kernel's count; else the run delay, at least), and
// whether that was measured at all.
uint64_t preemptedNs(const SpikeRecord &R);
bool preemptionMeasured(const SpikeRecord &R);
// R's duration that level L of it did not spend waiting (in the C library,
// or for a CPU).
uint64_t runningNs(const SpikeRecord &R, uint32_t L);
uint64_t startNs(const SpikeLevel &L);
uint64_t thresholdNs(const SpikeLevel &L);
uint64_t childNs(const SpikeLevel &L); // in timed callees that had returned
uint64_t waitNs(const SpikeLevel &L);  // waiting in the C library
uint64_t startNs(const RecentCall &C);
uint64_t durationNs(const RecentCall &C);
// How long before (Before) or after R's spiking call recent call C began.
uint64_t startOffsetNs(const SpikeRecord &R, const RecentCall &C, bool &Before);
// The run so far.
uint64_t runNs();
// The samples of R's spiking call (sample=): how long its sampled culprit
// ran, estimated from its samples (each stands for the time halfway to its
// neighbours: spiketrap_sampler.cpp); when the first sample that agrees was
// taken; how long from its first sample to its last.
uint64_t sampledEstimateNs(const SpikeRecord &R);
uint64_t sampledStartNs(const SpikeRecord &R);
uint64_t sampledSeenNs(const SpikeRecord &R);
uint64_t idleNs(const SpikeLevel &L);  // the part of waitNs that was idle
// R's duration without its spiking call's idle waits: how late it was (what
// reports rank spikes by).
uint64_t activeNs(const SpikeRecord &R);
// The longest of F's idle calls.
uint64_t worstNs(const IdleFunction &F);
// The functions with idle calls over their threshold (spiketrap_spikes.h),
// most calls first, into Out (sized kIdleFunctions); how many.
size_t sortedIdle(Array<const IdleFunction *> &Out);

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_MODEL_H
