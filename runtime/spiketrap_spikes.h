//===- spiketrap_spikes.h - Bounded store of spike records ------*- C++ -*-===//
//
// Spike records (spiketrap_record.h) go into one preallocated arena by an
// atomic bump of its end: no lock, no allocation, async-signal-safe. A full
// arena keeps the longest spikes: a spike longer than the shortest kept one
// it fits in takes that one's room (claimed with a compare-and-swap), any
// other is counted as dropped. Readers hold a SpikeReader, so no record
// changes under them.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SPIKES_H
#define SPIKETRAP_SPIKES_H

#include "spiketrap.h"
#include "spiketrap_record.h"
#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

// Allocates the arena (at start-up, never in a hook). RecordIdle
// (report_idle=1): idle calls over their threshold are recorded too.
void spikesInit(uint64_t Bytes, bool RecordIdle);
// In a forked child: the parent's records are the parent's to report.
void spikesAfterForkChild();
// Before a shared object is unloaded: records that name its descriptors get
// copies owned by the runtime, so the report never reads unmapped memory.
void spikesDetachRange(uintptr_t Lo, uintptr_t Hi);

// Whether the call of frame Depth - 1 of T, over its threshold at End, was
// over it only by its idle waits (a sleep, an event loop's readiness wait,
// a worker waiting for work: spiketrap_waits.h): then it is no spike,
// counted (idleFunctions) and recorded only when asked for (report_idle=1)
// or when the watcher reported it hung. Decided first: adaptive mode does
// not judge idle calls.
enum class IdleVerdict { Spike, RecordIdle, Drop };
IdleVerdict judgeIdle(ThreadState &T, uint32_t Depth, uint64_t End);

// Records the Depth open frames of T, the last of which ends at End, with
// the Candidates adaptive mode named for it (adaptSpike, decided first).
// Called from __spiketrap_exit when a call runs over its threshold, and
// with Unwound from a hook that finds the frame left by an exception or a
// longjmp (End: then). Idle: judgeIdle's RecordIdle. RunDelay: how long
// the thread waited for a CPU during the call (runDelaySince, read first,
// nearest its end), when HasRunDelay.
struct RunDelay {
  bool Has;
  uint64_t Ns;
};
void recordSpike(ThreadState &T, uint32_t Depth, uint64_t End,
                 const SpikeCandidates &Candidates, RunDelay Preempted,
                 bool Unwound, bool Idle);
// Records a frame (between two frame marks) that ran over its budget, as a
// one-level spike of Desc.
void recordFrameSpike(ThreadState &T, const spiketrap_desc *Desc,
                      uint64_t Start, uint64_t End, uint64_t Budget,
                      uint64_t Frame);
// The name reports give T's thread, into Out[16].
void threadDisplayName(const ThreadState &T, char *Out);
// Copies the open frames of T, which may be running on another thread, into
// Out[kMaxDepth]; their number, or 0 when T kept calling while we looked.
// *Calls: T's call count the copy is valid for. Past the capacity only the
// outermost kMaxDepth calls have frames: with Past, those are copied and
// *Past counts the calls open beyond them; without, 0 (the innermost call is
// not known).
uint32_t snapshotStack(const ThreadState &T, SpikeLevel *Out, uint64_t *Calls,
                       uint32_t *Past = nullptr);
// Records the Levels open frames of T that the hang watchdog copied, the
// last of which had not returned at Now (a hang record is never replaced).
// Returns the record's arena offset, or UINT64_MAX when the arena is full of
// longer spikes.
uint64_t recordHang(ThreadState &T, const SpikeLevel *Level, uint32_t Levels,
                    uint64_t Now);
// Frames marked so far (spiketrap_frame_mark).
extern uint64_t frameNumber;

// While one lives, no record is replaced: the report, the live log and the
// watchdog read the arena under one (a spike that would replace a record
// meanwhile is dropped). Its constructor waits a little for replacements
// under way; a record still being replaced after that (its writer is the
// thread the reader interrupted) is skipped.
class SpikeReader {
public:
  SpikeReader();
  ~SpikeReader();
  SpikeReader(const SpikeReader &) = delete;
  SpikeReader &operator=(const SpikeReader &) = delete;
};

// Calls F(const SpikeRecord &) for each complete record, in arena order
// (oldest first until the arena was full); under a SpikeReader.
template <typename Fn> void forEachSpike(Fn F);

// Calls over their threshold only by their idle time (spiketrap_waits.h),
// by function: not spikes, counted here whether recorded or not.
struct IdleFunction {
  const spiketrap_desc *Desc; // null: a free slot
  uint64_t Calls;
  uint64_t WorstTicks; // the longest of them
  uint32_t Call;       // WaitCall the longest idled in the most
};
constexpr uint32_t kIdleFunctions = 256;
// The table (kIdleFunctions slots, some free) and how many idle calls there
// were in all (those of functions past the table's room included).
const IdleFunction *idleFunctions();
uint64_t idleCalls();

// The spikes a full arena dropped (never written, or replaced), by the
// function that spiked: with the records kept, what the report says of
// every function's spikes.
struct LostFunction {
  const spiketrap_desc *Desc; // null: a free slot
  uint64_t Spikes;
  uint64_t WorstTicks; // the longest, without idle waits (activeTicks)
};
constexpr uint32_t kLostFunctions = 1024;
// The table (kLostFunctions slots, some free).
const LostFunction *lostFunctions();

struct SpikeTotals {
  uint64_t Recorded; // records kept (hangs not counted)
  // Spikes without a record: never written (the arena full of longer
  // ones), or written and then replaced by a longer one (Replaced of them).
  uint64_t Dropped, Replaced;
  uint64_t Hangs; // hang records (hang_after=), not in Recorded
};
SpikeTotals spikeTotals();

// The arena has been full: records may be replaced (while no SpikeReader
// lives).
bool spikeArenaFull();

// The complete record at arena offset Off, or null.
const SpikeRecord *spikeAt(uint64_t Off);
// The first complete record at or after arena offset *Off, or null past the
// last one; *Off becomes the offset after it.
const SpikeRecord *nextSpike(uint64_t *Off);

template <typename Fn> void forEachSpike(Fn F) {
  uint64_t Off = 0;
  while (const SpikeRecord *R = nextSpike(&Off))
    F(*R);
}

} // namespace __spiketrap

#endif // SPIKETRAP_SPIKES_H
