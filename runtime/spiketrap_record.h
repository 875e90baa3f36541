//===- spiketrap_record.h - What a spike record holds -----------*- C++ -*-===//
//
// A spike record is the stack as it stood when a call ran over its
// threshold, with what each part of the runtime adds to it: the waits in the
// C library (spiketrap_waits.h), the calls just before (spiketrap_recent.h),
// the kernel's events (spiketrap_kernel_events.h), the time it waited for a
// CPU (spiketrap_rundelay.h), adaptive mode's
// candidates (spiketrap_adaptive.h), the frames its samples agree on
// (spiketrap_sampler.h). Those parts include this header, not the
// recorder (spiketrap_spikes.h), which reserves a record, has each part fill
// its share and publishes it; the reports read it.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_RECORD_H
#define SPIKETRAP_RECORD_H

#include "spiketrap.h"
#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

// One open call of the recorded stack.
struct SpikeLevel {
  const spiketrap_desc *Desc;
  uint64_t Start;     // ticks at entry
  uint64_t Threshold; // ticks, resolved (kNever: ignored)
  uint64_t ChildTicks; // in timed callees that had returned by then
  uint64_t WaitTicks;  // waiting in the C library (spiketrap_waits.h)
  uint64_t IdleTicks;  // the part of WaitTicks that was idle, not a stall
};

// A message of one level, copied from the thread's pool when recorded.
struct SpikeMessage {
  uint32_t Level;
  uint32_t Kind; // MessageKind
  char Text[kMessageBytes];
};

// recent_calls=: one of the calls a thread made just before a spike.
struct RecentCall {
  const spiketrap_desc *Desc;
  uint64_t Start, End; // ticks
  uint32_t Depth;      // 0: outermost
  uint32_t Reserved;
};

// What the kernel did to the thread inside one level of a spike.
struct KernelLevel {
  uint32_t MinorFaults, MajorFaults;
  uint32_t Preemptions; // switched out while runnable (involuntary)
  uint32_t LowerBound;  // the ring had overwritten events inside the level
  uint64_t PreemptedNs; // off the CPU after those preemptions
  uint64_t BlockedNs;   // off the CPU after switching out to wait
};

// sample=: a frame the spike's samples found (spiketrap_sampler.h): from
// the thread's first timed frame down to the spiking call (the frames
// between its timed levels), then below it as deep as most samples agree
// (the culprit chain).
struct SampledFrame {
  uintptr_t Fn;               // start of its function; 0 once named by Desc
  const spiketrap_desc *Desc; // the timed level's (Activation), a timed
                              // callee's, or the name given it at dlclose
  uint32_t Level; // the innermost timed level open above it (the spiking
                  // call's for the culprit chain)
  uint32_t Flags; // SampledFlags
};
enum SampledFlags : uint32_t {
  // The physical frame of timed level Level: the function itself, or the
  // timed path / trampoline whose callee is the function's own body.
  SampledActivation = 1,
  SampledCulprit = 2, // below the spiking call: where the samples agreed
  SampledTimed = 4,   // Desc is a timed call's (an activation, a callee)
  // Named when its object was unloaded (Fn 0; Desc the runtime's copy);
  // with SampledTimedPath, a timed path's (its callee is the body).
  SampledTimedPath = 8,
};
struct SampledStats {
  uint32_t Samples;     // taken during the spiking call, in its own time
                        // (not in a timed call inside it)
  uint32_t Agree;       // of them, in the culprit's one activation
  uint32_t Blocked;     // of those, taken with the thread blocked (a wait
                        // the runtime does not interpose: Sample::Blocked)
  uint64_t First, Last; // ticks: the first and last of those
  uint64_t From;        // ticks: when the culprit's samples begin to stand
  uint64_t Ran;         // ticks the culprit's samples stand for
};

constexpr uint32_t kMaxCandidates = 4;

// Adaptive mode's candidates for a spike (SpikeRecord::Candidates), named
// before the spike is recorded (adaptSpike, spiketrap_adaptive.h).
struct SpikeCandidates {
  uint32_t Num = 0;
  const spiketrap_desc *Desc[kMaxCandidates];
};

struct SpikeRecord {
  uint32_t Committed; // set last, with release: the record is complete
  // Bytes of this record's room in the arena, header included: a record
  // that replaced a shorter spike's (a full arena) keeps the room's size.
  uint32_t Size;
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
  // 1: the call was left by an exception or a longjmp (no exit hook ran):
  // End is when a later hook found its frame dead, so it ended by then.
  uint32_t Unwound;
  // recent_calls=: the thread's timed calls just before this record was
  // made (RecentCalls after the messages), oldest first.
  uint32_t NumRecent;
  // kernel_events=: a KernelLevel per level after the recent calls.
  uint32_t HasKernel;
  // sample=: SampledFrames after the kernel levels, and how many samples.
  uint32_t NumSampled;
  SampledStats Sampled;
  const spiketrap_desc *Candidates[kMaxCandidates];
  // The longest wait in the C library inside the spiking call, and whether
  // the per-thread ring lost waits during it (WaitTicks are then at least).
  uint64_t LongestWaitTicks;
  const spiketrap_desc *LongestWaitDesc; // waited from; null: no wait
  uint32_t LongestWaitCall;              // WaitCall
  uint32_t WaitLowerBound;
  // The longest wait was idle (spiketrap_waits.h); 1: the call's time was
  // over its threshold only by its idle time (recorded with report_idle=1).
  uint32_t LongestWaitIdle;
  uint32_t Idle;
  // How long the spiking call waited for a CPU while runnable (preempted),
  // from the thread's run delay (spiketrap_rundelay.h), at least; 0 when
  // not measured (HasRunDelay 0: kernel_events= counts it instead, or no
  // reading was taken while the call ran).
  uint64_t RunDelayNs;
  uint32_t HasRunDelay;
  uint32_t Slot; // its index in the arena's slot table (spiketrap_spikes.cpp)
  char ThreadName[16];  // as set by the API or known to the kernel then
  SpikeLevel Level[1];  // Levels entries

  uint64_t durationTicks() const { return End - Level[Levels - 1].Start; }
  // The duration without the spiking call's idle waits: how late it was
  // (what reports rank spikes by).
  uint64_t activeTicks() const {
    uint64_t Idle = Level[Levels - 1].IdleTicks;
    return Idle < durationTicks() ? durationTicks() - Idle : 0;
  }
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

// The rule for a call late because its thread waited for a CPU: that wait
// (PreemptedNs) is most of its own time (OwnNs; 3/4: a loaded machine's
// usual share does not relabel a slow call), and without it the call was
// within its threshold. The report blames no code for such a spike, and
// adaptive mode neither keeps it timed nor times its callees again.
inline bool latePreempted(uint64_t PreemptedNs, uint64_t OwnNs,
                          uint64_t ThresholdNs) {
  return PreemptedNs && 4 * PreemptedNs >= 3 * OwnNs &&
         OwnNs - (PreemptedNs < OwnNs ? PreemptedNs : OwnNs) <= ThresholdNs;
}

} // namespace __spiketrap

#endif // SPIKETRAP_RECORD_H
