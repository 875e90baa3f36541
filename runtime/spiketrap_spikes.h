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

// What a record holds besides its levels: Messages messages, Recent recent
// calls, (Kernel) the kernel's events per level, Sampled frames.
struct Extras {
  uint32_t Messages = 0, Recent = 0;
  bool Kernel = false;
  uint32_t Sampled = 0;
};
// Reserves a record of Levels levels and E (its header cleared); null when
// the arena is full of longer spikes (counted as dropped). Key: the spike's
// activeTicks (what a full arena weighs it by; 0: it never replaces one).
// *Replacing: it takes a replaced record's room (commit says when it is
// done), which holds its levels and of E what fits, in this order: samples,
// messages, kernel events, recent calls (E says what is left).
SpikeRecord *reserve(uint64_t Key, bool *Replacing, uint32_t Levels, Extras &E);
// Names T's thread in R and publishes it; one that replaced another
// (Replacing) is a candidate for replacement again, under its own key.
void commit(ThreadState &T, SpikeRecord *R, bool Replacing);
// R's offset in the arena (what a hang record is found by later).
uint64_t recordOffset(const SpikeRecord *R);

// Whether T is the program's main thread (its waits for a result stall).
bool onMainThread(const ThreadState &T);
// report_idle=1: idle calls over their threshold are recorded too.
bool recordIdleCalls();
// A call of D was over its threshold only by Ticks of idle waiting, mostly
// in Call: counted by function (idleFunctions).
void noteIdle(const spiketrap_desc *D, uint64_t Ticks, uint32_t Call);
// A spike of D, Ticks long without its idle waits, has no record: the
// arena was full of longer ones, or a longer one replaced it.
void noteLost(const spiketrap_desc *D, uint64_t Ticks);

// The name reports give T's thread, into Out[16].
void threadDisplayName(const ThreadState &T, char *Out);
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
IdleFunction *idleFunctions();
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
