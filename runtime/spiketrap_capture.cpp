//===- spiketrap_capture.cpp - A spike, from its call's end to a record ---===//
//
// A spike is captured in three stages, on its thread, in the order below:
//   - measure: the thread's waits, read once from their ring: the idle time
//     the verdict needs, the preemption inside waits, each level's waits;
//   - decide: idle or a spike, preempted or not (the run delay), what
//     adaptive mode switches on;
//   - fill: reserve a record, each contributor's share (levels and waits,
//     messages, recent calls, kernel events, samples, candidates), commit.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_capture.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_clock.h"
#include "spiketrap_kernel_events.h"
#include "spiketrap_recent.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_sampler.h"
#include "spiketrap_signal.h"
#include "spiketrap_spikes.h"
#include "spiketrap_waits.h"

#include <atomic>

namespace __spiketrap {

namespace {

// The thread's copy of its waits for the spike it captures: in the room
// after its frames (captureScratch), not on the stack (2.5 KiB; a handler on
// a program's small alternate stack spikes too). A capture inside a capture
// on the same thread (a handler that interrupted it) reads none: its waits
// are a lower bound.
static_assert(sizeof(SpikeWaits) <= kCaptureScratchBytes,
              "the waits' copy fits the room after the frames");
// 1 + the thread's handler nesting of the capture under way; 0: none. A
// capture at the same nesting or below cannot be inside it: that one was
// left (a handler that interrupted it jumped out), and this one takes over.
__thread uint32_t Capturing __attribute__((tls_model("initial-exec")));
SpikeWaits NoWaits;

// Holds the thread's copy of its waits while it lives.
class WaitsCopy {
public:
  WaitsCopy(const ThreadState &T, uint32_t Depth)
      : Outer(!Capturing || T.NumSignals < Capturing),
        Copy(Outer ? static_cast<SpikeWaits *>(captureScratch(T)) : &NoWaits) {
    if (!Outer)
      return;
    Capturing = T.NumSignals + 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    copySpikeWaits(T, Depth, onMainThread(T), *Copy);
  }
  ~WaitsCopy() {
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (Outer)
      Capturing = 0;
  }
  const SpikeWaits &waits() const { return *Copy; }
  bool lost() const { return !Outer; }

private:
  bool Outer;
  SpikeWaits *Copy;
};

// How long a spike's thread waited for a CPU during the call, when Has.
struct RunDelay {
  bool Has;
  uint64_t Ns;
};

// Whether the hang watchdog reported the open call F of T as hung: its return
// is recorded, idle or not, so the report says how long it took (the
// watchdog's fields, read racily: a stale value only records an idle call).
SPIKETRAP_RACY_READER bool reportedHung(const ThreadState &T, const Frame &F) {
  return SPIKETRAP_RACY(T.Watch.Desc) == F.Desc &&
         SPIKETRAP_RACY(T.Watch.Start) == F.Start;
}

// runDelaySince's view of the waits (CallWaits::TicksSince).
struct WaitsUntil {
  const SpikeWaits &W;
  uint64_t End;
};
uint64_t waitTicksSince(const void *P, uint64_t From) {
  const auto &U = *static_cast<const WaitsUntil *>(P);
  return waitTicks(U.W, From, U.End);
}

// Decide: how long the call of Top, ending at End, waited for a CPU. Read
// first, nearest its end.
RunDelay preemption(ThreadState &T, const Frame &Top, uint64_t End,
                    const SpikeWaits &W) {
  WaitsUntil U = {W, End};
  CallWaits Waits = {waitsPreemptedNs(W, Top.Start, End), waitTicksSince, &U};
  RunDelay P = {};
  P.Has = runDelaySince(T, Top.Start, End, Waits, P.Ns);
  return P;
}

// Fills R's levels with the Depth open frames of T, the last of which ends
// at End, their waits (W), and their live messages (Messages of them).
void fillLevels(ThreadState &T, SpikeRecord *R, uint32_t Depth, uint64_t End,
                const SpikeWaits &W, uint32_t Messages) {
  R->End = End;
  // Handlers left by siglongjmp are dropped first, judged by the spiking call.
  uint32_t Floor = signalFloor(T, uintptr_t(T.Frames[Depth - 1].Addr));
  R->Signo = T.NumSignals ? T.Signals[T.NumSignals - 1].Signo : 0;
  R->SignalLevel = Floor;
  for (uint32_t I = 0; I < Depth; ++I) {
    const Frame &F = T.Frames[I];
    R->Level[I] = {F.Desc,       F.Start, resolvedThreshold(F.Threshold),
                   F.ChildTicks, 0,       0};
  }
  // How much of each level was spent waiting, idle or held up, and on what.
  WaitSummary S;
  sumWaits(W, R->Level, Depth, End, S);
  R->LongestWaitTicks = S.LongestTicks;
  R->LongestWaitDesc = S.LongestDesc;
  R->LongestWaitCall = S.LongestCall;
  R->WaitLowerBound = S.LowerBound;
  R->LongestWaitIdle = S.LongestIdle;
  // Bounded copies: the pool slots are reused once their frame is gone.
  auto *M = const_cast<SpikeMessage *>(R->messages());
  uint32_t N = 0;
  for (const MessageSlot &Slot : T.Messages)
    if (N < Messages && liveMessage(T, Slot, Depth)) {
      M[N].Level = Slot.Level;
      M[N].Kind = Slot.Kind;
      __builtin_memcpy(M[N].Text, Slot.Text, kMessageBytes);
      M[N++].Text[kMessageBytes - 1] = 0;
    }
  R->NumMessages = N;
}

// Fill: the record of the Depth open frames of T, the last of which ends at
// End (Idle of it idle), with what was decided.
void fill(ThreadState &T, uint32_t Depth, uint64_t End, const WaitsCopy &W,
          uint64_t Idle, const SpikeCandidates &Candidates, RunDelay Preempted,
          bool Unwound, bool RecordedIdle) {
  uint32_t Messages = 0;
  for (const MessageSlot &S : T.Messages)
    Messages += liveMessage(T, S, Depth);
  uint32_t Recent = recentCount(T);
  // Where the samples taken while it ran agree its time went.
  SampledFrame Sampled[kMaxSampled];
  SampledStats Stats;
  uint32_t NumSampled = sampledChain(T, Depth - 1, End, Sampled, Stats);
  // The frames between its timed levels: its callers are still on the
  // stack (not when an exception or a longjmp left it).
  if (!Unwound)
    NumSampled = framesAbove(T, Depth - 1, Sampled, NumSampled);
  // No switched-off callee named: those the watcher timed again while it
  // ran (sample=1: it saw the call past its threshold in its own time).
  SpikeCandidates Named = Candidates;
  if (!Named.Num)
    Named.Num = samplerRearmed(T, Depth - 1, Named.Desc);
  // How late it was (activeTicks), for a full arena to weigh it against
  // the records it holds.
  const Frame &Top = T.Frames[Depth - 1];
  uint64_t Dur = End - Top.Start, Key = Idle < Dur ? Dur - Idle : 1;
  bool Replacing;
  Extras E = {Messages, Recent, T.Kernel != nullptr, NumSampled};
  SpikeRecord *R = reserve(Key, &Replacing, Depth, E);
  if (!R) {
    noteLost(Top.Desc, Key);
    return;
  }
  fillLevels(T, R, Depth, End, W.waits(), E.Messages);
  R->WaitLowerBound |= W.lost();
  R->NumRecent = recentCopy(T, const_cast<RecentCall *>(R->recent()), E.Recent);
  R->HasKernel =
      E.Kernel && sumKernelEvents(T, R->Level, Depth, End,
                                  const_cast<KernelLevel *>(R->kernel()));
  __builtin_memcpy(const_cast<SampledFrame *>(R->sampled()), Sampled,
                   E.Sampled * sizeof(SampledFrame));
  if (E.Sampled == NumSampled) // no room for the frames: none of their stats
    R->Sampled = Stats;
  R->NumCandidates = Named.Num;
  R->Unwound = Unwound;
  R->Idle = RecordedIdle;
  R->RunDelayNs = Preempted.Ns;
  R->HasRunDelay = Preempted.Has;
  __builtin_memcpy(R->Candidates, Named.Desc,
                   Named.Num * sizeof(Named.Desc[0]));
  commit(T, R, Replacing);
}

} // namespace

void captureSpike(ThreadState &T, uint32_t Depth, uint64_t End,
                  SpikeFrom From) {
  const Frame &Top = T.Frames[Depth - 1];
  uint64_t Threshold = resolvedThreshold(Top.Threshold), Dur = End - Top.Start;
  // Over only by the time the sampler's ticks took in it: not the call's (a
  // handler's ticks are its own: the trampoline takes them out).
  if (From != SpikeFrom::Handler)
    if (uint64_t Ticks = samplerTicksIn(T, Top.Start, End))
      if (Dur <= Threshold + Ticks)
        return;

  // Measure: the waits, once.
  WaitsCopy W(T, Depth);
  uint32_t IdleCall;
  uint64_t Idle = idleTicks(W.waits(), Top.Start, End, &IdleCall);

  // Decide. Over only by its idle waits (a sleep, an event loop's readiness
  // wait, a worker waiting for work): no spike, only counted, and recorded
  // when asked for (report_idle=1) or when the watcher reported it hung.
  // Decided first: adaptive mode does not judge idle calls.
  bool RecordedIdle = false;
  if (Idle && Dur - Idle <= Threshold) {
    noteIdle(Top.Desc, Dur, IdleCall);
    if (!recordIdleCalls() && !reportedHung(T, Top))
      return;
    RecordedIdle = true;
  }
  RunDelay P = preemption(T, Top, End, W.waits());
  // A spike that was its thread waiting for a CPU (a loaded machine) says
  // nothing of the function: it stays as adaptive mode had it.
  SpikeCandidates C;
  if (From != SpikeFrom::Handler && !RecordedIdle &&
      !(P.Has && latePreempted(P.Ns, ticksToNs(Dur - Top.ChildTicks),
                               ticksToNs(Threshold))))
    C = adaptSpike(Top, End);

  // Fill.
  fill(T, Depth, End, W, Idle, C, P, From == SpikeFrom::Unwound, RecordedIdle);
}

void recordFrameSpike(ThreadState &T, const spiketrap_desc *Desc,
                      uint64_t Start, uint64_t End, uint64_t Budget,
                      uint64_t Frame) {
  bool Replacing;
  Extras None;
  SpikeRecord *R = reserve(End - Start, &Replacing, 1, None);
  if (!R) {
    noteLost(Desc, End - Start);
    return;
  }
  R->End = End;
  R->Frame = Frame;
  R->IsFrame = 1;
  R->Level[0] = {Desc, Start, Budget, 0, 0, 0};
  commit(T, R, Replacing);
}

SPIKETRAP_RACY_READER uint32_t snapshotStack(const ThreadState &T,
                                             SpikeLevel *Out,
                                             uint64_t *CallsOut,
                                             uint32_t *Past) {
  for (int Try = 0; Try < 4; ++Try) {
    uint64_t Calls = SPIKETRAP_RACY(T.Calls);
    uint32_t Depth = SPIKETRAP_RACY(T.Depth);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (Depth > kMaxDepth && !Past)
      return 0; // past the capacity the innermost frames are not kept
    uint32_t Kept = Depth < kMaxDepth ? Depth : kMaxDepth;
    uint32_t Copied = 0;
    for (; Copied < Kept; ++Copied) {
      const Frame &F = T.Frames[Copied];
      // An entry hook midway (its thread preempted there): the frame's start
      // is not written yet. The stack ends above it.
      if (uintptr_t(SPIKETRAP_RACY(F.Addr)) == kUnderConstruction)
        break;
      uint64_t Thr = SPIKETRAP_RACY(F.Threshold);
      Out[Copied] = {SPIKETRAP_RACY(F.Desc),
                     SPIKETRAP_RACY(F.Start),
                     resolvedThreshold(Thr),
                     SPIKETRAP_RACY(F.ChildTicks),
                     0,
                     0};
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    // No call meanwhile and the same depth: every frame copied was open and
    // unchanged (a frame is only rewritten by the call that pushes it).
    if (SPIKETRAP_RACY(T.Calls) == Calls && SPIKETRAP_RACY(T.Depth) == Depth) {
      if (CallsOut)
        *CallsOut = Calls;
      if (Past)
        *Past = Depth - Kept;
      return Copied;
    }
  }
  return 0;
}

uint64_t recordHang(ThreadState &T, const SpikeLevel *Level, uint32_t Levels,
                    uint64_t Now) {
  bool Replacing;
  Extras None;
  SpikeRecord *R =
      reserve(Now - Level[Levels - 1].Start, &Replacing, Levels, None);
  if (!R)
    return UINT64_MAX;
  R->End = Now;
  R->Hang = 1;
  __builtin_memcpy(R->Level, Level, Levels * sizeof(SpikeLevel));
  commit(T, R, Replacing);
  return recordOffset(R);
}

} // namespace __spiketrap
