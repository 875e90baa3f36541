//===- spiketrap_spikes.h - Bounded store of spike records ------*- C++ -*-===//
//
// A spike record is the stack as it stood when a call ran over its threshold.
// Records go into one preallocated arena by an atomic bump of its end: no
// lock, no allocation, async-signal-safe. A full arena counts what it drops.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SPIKES_H
#define SPIKETRAP_SPIKES_H

#include "spiketrap.h"
#include "spiketrap_kernel_events.h"
#include "spiketrap_recent.h"
#include "spiketrap_sampler.h"
#include "spiketrap_thread.h"

#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

struct SpikeLevel {
  const spiketrap_desc *Desc;
  uint64_t Start;     // ticks at entry
  uint64_t Threshold; // ticks, resolved (kNever: ignored)
  uint64_t ChildTicks; // in timed callees that had returned by then
  uint64_t WaitTicks;  // waiting in the C library (spiketrap_waits.h)
};

// A message of one level, copied from the thread's pool when recorded.
struct SpikeMessage {
  uint32_t Level;
  uint32_t Kind; // MessageKind
  char Text[kMessageBytes];
};

constexpr uint32_t kMaxCandidates = 4;

struct SpikeRecord {
  uint32_t Committed; // set last, with release: the record is complete
  uint32_t Size;      // bytes of this record, header included
  uint32_t Levels;    // stack depth; the last level is the spiking call
  uint32_t Tid;
  uint32_t SignalLevel; // first level run by a signal handler (if Signo)
  int32_t Signo;        // the innermost handler's signal, 0: not in one
  uint64_t End;         // ticks at exit of the spiking call
  uint64_t Frame;       // spiketrap_frame_mark count at End, 0: never marked
  uint32_t NumMessages; // SpikeMessages after the levels, by level
  uint32_t IsFrame;     // a frame over its budget (spiketrap_frame_mark)
  // Direct callees of the spiking function that adaptive mode had switched
  // off when at least half the threshold was in the function's own time:
  // candidates for that time (the first kMaxCandidates).
  uint32_t NumCandidates;
  // 1: a call still open hang_after after its last sign of life, recorded
  // by the watchdog (End: when it looked); its return is a record of its own.
  uint32_t Hang;
  // recent_calls=: the thread's timed calls just before this record was
  // made (RecentCalls after the messages), oldest first.
  uint32_t NumRecent;
  // kernel_events=: a KernelLevel per level after the recent calls.
  uint32_t HasKernel;
  // sample=: the frames the spike's samples agree on, SampledFrames after
  // the kernel levels (spiketrap_sampler.h), and how many samples.
  uint32_t NumSampled;
  uint32_t Reserved;
  SampledStats Sampled;
  const spiketrap_desc *Candidates[kMaxCandidates];
  // The longest wait in the C library inside the spiking call, and whether
  // the per-thread ring lost waits during it (WaitTicks are then at least).
  uint64_t LongestWaitTicks;
  const spiketrap_desc *LongestWaitDesc; // waited from; null: no wait
  uint32_t LongestWaitCall;              // WaitCall
  uint32_t WaitLowerBound;
  char ThreadName[16];  // as set by the API or known to the kernel then
  SpikeLevel Level[1];  // Levels entries

  uint64_t durationTicks() const { return End - Level[Levels - 1].Start; }
  const SpikeMessage *messages() const {
    return reinterpret_cast<const SpikeMessage *>(Level + Levels);
  }
  const RecentCall *recent() const {
    return reinterpret_cast<const RecentCall *>(messages() + NumMessages);
  }
  const KernelLevel *kernel() const {
    return reinterpret_cast<const KernelLevel *>(recent() + NumRecent);
  }
  const SampledFrame *sampled() const {
    return reinterpret_cast<const SampledFrame *>(kernel() +
                                                  (HasKernel ? Levels : 0));
  }
  // Level L's message of this kind, or null.
  const char *message(uint32_t L, uint32_t Kind) const {
    for (uint32_t I = 0; I < NumMessages; ++I)
      if (messages()[I].Level == L && messages()[I].Kind == Kind)
        return messages()[I].Text;
    return nullptr;
  }
};

// Allocates the arena (at start-up, never in a hook).
void spikesInit(uint64_t Bytes);
// In a forked child: the parent's records are the parent's to report.
void spikesAfterForkChild();
// Before a shared object is unloaded: records that name its descriptors get
// copies owned by the runtime, so the report never reads unmapped memory.
void spikesDetachRange(uintptr_t Lo, uintptr_t Hi);

// Records the Depth open frames of T, the last of which ends at End.
// Called from __spiketrap_exit when a call runs over its threshold.
void recordSpike(ThreadState &T, uint32_t Depth, uint64_t End);
// Records a frame (between two frame marks) that ran over its budget, as a
// one-level spike of Desc.
void recordFrameSpike(ThreadState &T, const spiketrap_desc *Desc,
                      uint64_t Start, uint64_t End, uint64_t Budget,
                      uint64_t Frame);
// The name reports give T's thread, into Out[16].
void threadDisplayName(const ThreadState &T, char *Out);
// Copies the open frames of T, which may be running on another thread, into
// Out[kMaxDepth]; their number, or 0 when T kept calling while we looked
// (or is past the capacity). *Calls: T's call count the copy is valid for.
uint32_t snapshotStack(const ThreadState &T, SpikeLevel *Out,
                       uint64_t *Calls);
// Records the Levels open frames of T that the hang watchdog copied, the
// last of which had not returned at Now. Returns the record's arena offset,
// or UINT64_MAX when the arena is full.
uint64_t recordHang(ThreadState &T, const SpikeLevel *Level, uint32_t Levels,
                    uint64_t Now);
// Frames marked so far (spiketrap_frame_mark).
extern uint64_t frameNumber;

// Calls F(const SpikeRecord &) for each complete record, oldest first.
template <typename Fn> void forEachSpike(Fn F);

struct SpikeTotals {
  uint64_t Recorded, Dropped;
  uint64_t Hangs; // hang records (hang_after=), not in Recorded
};
SpikeTotals spikeTotals();

// The complete record at arena offset Off, or null past the last one.
const SpikeRecord *spikeAt(uint64_t Off);

template <typename Fn> void forEachSpike(Fn F) {
  uint64_t Off = 0;
  while (const SpikeRecord *R = spikeAt(Off)) {
    F(*R);
    Off += R->Size;
  }
}

} // namespace __spiketrap

#endif // SPIKETRAP_SPIKES_H
