//===- spiketrap_rundelay.cpp - Time a spike waited for a CPU -------------===//
//
// The readings are the platform's (the Scheduling section of
// spiketrap_platform.h; on Linux the thread's schedstat and status, read
// by the runtime's reader thread, ~20 us on our VM): the thread's own may
// be in a signal handler. The watcher also reads the thread's CPU time and
// how often it blocked, so a spike whose thread never blocked knows its
// preemption from its own CPU time: wall time less that is time runnable
// off the CPU.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_rundelay.h"
#include "spiketrap_arch.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_kernel_events.h"
#include "spiketrap_platform.h"
#include "spiketrap_procread.h"
#include "spiketrap_record.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

bool On;
PreemptionSource Source = PreemptionSource::None;
const char *Why = "";

// A reading of the thread's own, this recent before the end of a spike
// (its callee's spike, recorded just before), stands for one at the end.
constexpr uint64_t kReuseNs = 50000;
// A reading this late after the end of the spike (the thread was preempted
// again meanwhile) counts what came after it out.
constexpr uint64_t kLateNs = 200000;
uint64_t ReuseTicks, LateTicks;

// This thread's voluntary context switches, less the reader's (waits for
// our own /proc reads), or UINT64_MAX.
uint64_t ownBlocked() {
  uint64_t N = ownBlockedCount();
  return N == UINT64_MAX ? N : N - threadState.ProcReadSleeps;
}

} // namespace

PreemptionSource preemptionSource() { return Source; }
const char *preemptionUnknownWhy() { return Why; }

void runDelayInit(bool WatcherRuns) {
  if (kernelEventsOn) {
    Source = PreemptionSource::KernelEvents;
    return;
  }
  if (const char *Never = runDelayNeverWhy()) {
    Why = Never;
    return;
  }
  if (!WatcherRuns) {
    Why = flags.sample ? "no watcher thread (no sampling under a sanitizer "
                         "or with an old C library)"
                       : "no watcher thread (sample=0)";
    return;
  }
  uint64_t Ns;
  switch (threadRunDelayNs(threadId(), Ns)) {
  case RunDelayRead::Ok:
    break;
  case RunDelayRead::Failed:
    Why = "/proc/self/task/<tid>/schedstat cannot be read";
    return;
  case RunDelayRead::NotKept:
    Why = "the kernel keeps no run delay (schedstat)";
    return;
  }
  ReuseTicks = nsToTicks(kReuseNs);
  LateTicks = nsToTicks(kLateNs);
  Source = PreemptionSource::RunDelay;
  __atomic_store_n(&On, true, __ATOMIC_RELEASE);
  __atomic_store_n(&CpuBaseTicks, nsToTicks(kCpuBaseNs), __ATOMIC_RELAXED);
}

void runDelayNoWatcher() {
  if (Source != PreemptionSource::RunDelay)
    return;
  __atomic_store_n(&On, false, __ATOMIC_RELEASE);
  __atomic_store_n(&CpuBaseTicks, UINT64_MAX, __ATOMIC_RELAXED);
  Source = PreemptionSource::None;
  Why = "no watcher thread";
}

void runDelayStop() {
  __atomic_store_n(&On, false, __ATOMIC_RELEASE);
  __atomic_store_n(&CpuBaseTicks, UINT64_MAX, __ATOMIC_RELAXED);
}

namespace {
SPIKETRAP_RACY_READER void watch(ThreadState &T, uint64_t Start, uint64_t Now,
                                 bool Self, uint64_t Waited) {
  RunDelayMark *M = T.RunDelayMarks;
  // A reading taken since the call began serves it (and its callers).
  uint64_t Newest = 0;
  for (uint32_t I = 0; I < kRunDelayMarks; ++I) {
    uint64_t At = __atomic_load_n(&M[I].At, __ATOMIC_RELAXED);
    Newest = At > Newest ? At : Newest;
  }
  if (Newest >= Start)
    return;
  uint64_t Ns;
  if (threadRunDelayNs(T.Tid, Ns) != RunDelayRead::Ok)
    return;
  Waited = Waited < Now - Start ? Waited : Now - Start;
  uint64_t WaitedNs = ticksToNs(Waited);
  Ns = Ns > WaitedNs ? Ns - WaitedNs : 0;
  Now -= Waited;
  // Its own: from the kernel's counters, not a 4 KB file on a signal stack.
  uint64_t Blocked = Self ? ownBlocked() : threadBlockedCount(T.Tid);
  uint64_t Cpu = Self ? tickThreadCpuNs() : threadCpuNsOf(T.Tid);
  // The slot: the oldest reading no open call needs (a call uses the
  // first reading after its start: one with no open call begun between the
  // reading before it and it serves none), else the oldest.
  uint32_t Slot = T.RunDelayNext % kRunDelayMarks;
  uint32_t Depth = SPIKETRAP_RACY(T.Depth);
  Depth = Depth < kMaxDepth ? Depth : kMaxDepth;
  uint64_t Before = 0;
  for (uint32_t K = 0; K < kRunDelayMarks; ++K) {
    uint32_t I = (T.RunDelayNext + K) % kRunDelayMarks; // oldest first
    uint64_t At = __atomic_load_n(&M[I].At, __ATOMIC_RELAXED);
    bool Needed = false;
    for (uint32_t J = 0; J < Depth && !Needed; ++J) {
      uint64_t S = SPIKETRAP_RACY(T.Frames[J].Start);
      Needed = S > Before && S <= At;
    }
    if (At)
      Before = At;
    if (!Needed) {
      Slot = I;
      break;
    }
  }
  // Published as a sequence: the thread reads At, Ns, then At again.
  __atomic_store_n(&M[Slot].At, 0, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  __atomic_store_n(&M[Slot].Ns, Ns, __ATOMIC_RELAXED);
  __atomic_store_n(&M[Slot].CpuNs, Cpu, __ATOMIC_RELAXED);
  __atomic_store_n(&M[Slot].Blocked, Blocked, __ATOMIC_RELAXED);
  __atomic_store_n(&M[Slot].At, Now, __ATOMIC_RELEASE);
  // The ring stays ordered oldest first from RunDelayNext when the oldest
  // went; another slot's reuse leaves it nearly so (only the choice of the
  // slot reads the order).
  if (Slot == T.RunDelayNext % kRunDelayMarks)
    ++T.RunDelayNext;
}
} // namespace

bool runDelayOn() { return __atomic_load_n(&On, __ATOMIC_RELAXED); }

// Two writers (the thread's tick, the watcher's look at a thread whose
// ticks do not come: it waits for a CPU): the one that comes second skips.
static void guardedWatch(ThreadState &T, uint64_t Start, uint64_t Now,
                         bool Self, uint64_t Waited) {
  if (!On || __atomic_exchange_n(&T.RunDelayWriting, 1, __ATOMIC_ACQUIRE))
    return;
  watch(T, Start, Now, Self, Waited);
  __atomic_store_n(&T.RunDelayWriting, 0, __ATOMIC_RELEASE);
}

void runDelayWatch(ThreadState &T, uint64_t Start, uint64_t Now) {
  guardedWatch(T, Start, Now, false, 0);
}

void runDelayWatchSelf(ThreadState &T, uint64_t Start, uint64_t Now,
                       uint64_t Waited) {
  guardedWatch(T, Start, Now, true, Waited);
}

SPIKETRAP_RACY_READER bool runDelayExplains(const ThreadState &T,
                                            uint64_t Start, uint64_t Now,
                                            uint64_t Threshold) {
  if (!On)
    return false;
  uint64_t From = UINT64_MAX, BaseCpu = 0;
  for (const RunDelayMark &M : T.RunDelayMarks) {
    uint64_t At = __atomic_load_n(&M.At, __ATOMIC_ACQUIRE);
    if (At >= Start && At <= Now && At < From) {
      From = At;
      BaseCpu = __atomic_load_n(&M.CpuNs, __ATOMIC_RELAXED);
    }
  }
  uint64_t Cpu = BaseCpu ? tickThreadCpuNs() : 0;
  if (!Cpu || Cpu < BaseCpu)
    return false;
  // The call's share off the CPU taken as that since the reading (before it,
  // the watcher did not look).
  uint64_t Ran = Cpu - BaseCpu, Since = ticksToNs(Now - From);
  uint64_t Own = ticksToNs(Now - Start);
  if (!Since || Ran >= Since)
    return false;
  double Off = double(Since - Ran) / double(Since);
  return latePreempted(uint64_t(Off * double(Own)), Own, ticksToNs(Threshold));
}

namespace {
// Publishes a reading of T's CPU time as a sequence (At cleared first,
// written last): a handler's reading that interrupts a wait's is
// overwritten whole by it, and a reader that a handler's write interrupted
// sees At change.
void setCpuBase(ThreadState &T, uint64_t At, uint64_t CpuNs, uint64_t Blocked) {
  RunDelayMark &M = T.CpuBase;
  __atomic_store_n(&M.At, 0, __ATOMIC_RELAXED);
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  M.CpuNs = CpuNs;
  M.Blocked = Blocked;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  __atomic_store_n(&M.At, At, __ATOMIC_RELAXED);
}

// This thread's CPU time and voluntary context switches; false: not known.
// Not getrusage's CPU time: the kernel brings a running thread's up to date
// only at its scheduler tick (4 ms at HZ=250), the CPU-time clock at once.
bool ownCpu(uint64_t &CpuNs, uint64_t &Blocked) {
  CpuNs = tickThreadCpuNs();
  Blocked = ownBlocked();
  return CpuNs && Blocked != UINT64_MAX;
}
} // namespace

uint64_t CpuBaseTicks = UINT64_MAX;

void runDelayReadCpuBase(ThreadState &T, uint64_t Start, CpuReading &Base) {
  uint64_t Cpu, Blocked;
  if (__atomic_load_n(&On, __ATOMIC_RELAXED) && ownCpu(Cpu, Blocked)) {
    setCpuBase(T, Start, Cpu, Blocked);
    Base = {Start, Cpu, Blocked};
  }
}

void runDelayNoteCpu(ThreadState &T, uint64_t At, uint64_t CpuNs,
                     uint64_t Blocked) {
  if (__atomic_load_n(&On, __ATOMIC_RELAXED))
    setCpuBase(T, At, CpuNs, Blocked);
}

uint64_t runDelayInWait(ThreadState &T, uint64_t Start, const CpuReading &Base,
                        uint64_t End) {
  if (!__atomic_load_n(&On, __ATOMIC_RELAXED))
    return 0;
  uint64_t BaseCpu = Base.CpuNs, BaseBlocked = Base.Blocked;
  bool Valid = Base.At && Base.At <= Start;
  uint64_t Cpu, Blocked;
  if (!ownCpu(Cpu, Blocked))
    return 0;
  setCpuBase(T, now(), Cpu, Blocked);
  // Never blocked since the reading before the wait: the wait ran for at
  // most the CPU time since, and was runnable the rest of its time.
  if (!Valid || Blocked != BaseBlocked || Cpu < BaseCpu)
    return 0;
  uint64_t Ran = Cpu - BaseCpu, Dur = ticksToNs(End - Start);
  return Dur > Ran ? nsToTicks(Dur - Ran) : 0;
}

namespace {
// runDelaySince from the watcher's or the tick's readings inside the call.
bool runDelayFromMarks(ThreadState &T, uint64_t Start, uint64_t End,
                       const CallWaits &Waits, uint64_t &Out) {
  // The watcher's first reading inside the call.
  uint64_t From = UINT64_MAX, Base = 0, BaseCpu = 0, BaseBlocked = 0;
  for (RunDelayMark &M : T.RunDelayMarks) {
    uint64_t At = __atomic_load_n(&M.At, __ATOMIC_ACQUIRE);
    uint64_t Ns = __atomic_load_n(&M.Ns, __ATOMIC_RELAXED);
    uint64_t Cpu = __atomic_load_n(&M.CpuNs, __ATOMIC_RELAXED);
    uint64_t Blocked = __atomic_load_n(&M.Blocked, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (!At || At != __atomic_load_n(&M.At, __ATOMIC_RELAXED) || At < Start ||
        At > End || At >= From)
      continue;
    From = At;
    Base = Ns;
    BaseCpu = Cpu;
    BaseBlocked = Blocked;
  }
  if (From == UINT64_MAX)
    return false;
  uint64_t Duration = ticksToNs(End - Start);
  // The thread's CPU time and context switches first (two system calls,
  // ~2 us; schedstat's three take ~20 us, in the callers' time). Never
  // blocked since the watcher's reading (no voluntary switch), it was
  // runnable all the time it was off the CPU since: its preemption since
  // then, exactly. Only a thread mostly off the CPU since then (the call
  // may be labelled preempted) reads the run delay too, which also counts
  // a preemption already going on when the watcher looked.
  uint64_t Since = 0; // preemption known from the CPU time
  if (BaseCpu) {
    uint64_t Cpu = tickThreadCpuNs(), Now = now();
    uint64_t Wall = Now > From ? ticksToNs(Now - From) : 0;
    uint64_t Ran = Cpu > BaseCpu ? Cpu - BaseCpu : 0;
    if (BaseBlocked != UINT64_MAX && ownBlocked() == BaseBlocked) {
      uint64_t Off = Wall > Ran ? Wall - Ran : 0;
      // Less what came after the end (the thread preempted since).
      if (Now > End + LateTicks) {
        uint64_t After = ticksToNs(Now - End);
        Off = Off > After ? Off - After : 0;
      }
      Since = Off < Duration ? Off : Duration;
      if (2 * Since < (End > From ? ticksToNs(End - From) : 0)) {
        Out = Since;
        return true;
      }
    } else {
      // It blocked. Off the CPU outside its interposed waits (blocked there;
      // a wake-up's wait for a CPU is the wait's) for under 1/20 of the
      // call, it was preempted for less: counted as none, no line shows so
      // little (the text's bar, report_text.cpp), no blame turns on it.
      uint64_t Busy = Ran + ticksToNs(Waits.TicksSince(Waits.Waits, From));
      uint64_t Off = Wall > Busy ? Wall - Busy : 0;
      if (Off * 20 < Duration) {
        Out = 0;
        return true;
      }
    }
  }
  // The thread's own reading at the end (a signal handler's spike may
  // interrupt this: Last.At 0 while it is written).
  RunDelayMark &Last = T.RunDelayLast;
  uint64_t LastAt = Last.At, Ns, Late = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (LastAt >= From && LastAt <= End && End - LastAt <= ReuseTicks) {
    Ns = Last.Ns;
  } else {
    if (threadRunDelayNs(T.Tid, Ns) != RunDelayRead::Ok)
      return false;
    uint64_t Now = now();
    Last.At = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    Last.Ns = Ns;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    Last.At = Now;
    if (Now > End + LateTicks)
      Late = ticksToNs(Now - End);
  }
  if (Ns < Base)
    return false; // not the thread the watcher read (a forked child)
  Ns -= Base;
  Ns = Ns > Late ? Ns - Late : 0;
  Ns = Ns > Since ? Ns : Since;
  Out = Ns < Duration ? Ns : Duration;
  return true;
}
} // namespace

bool runDelaySince(ThreadState &T, uint64_t Start, uint64_t End,
                   const CallWaits &Waits, uint64_t &Out) {
  if (!__atomic_load_n(&On, __ATOMIC_ACQUIRE))
    return false;
  // Both are lower bounds of the call's preemption: the larger one.
  uint64_t InWaits = Waits.PreemptedNs;
  bool Has = runDelayFromMarks(T, Start, End, Waits, Out);
  if (!Has && !InWaits)
    return false;
  uint64_t Duration = ticksToNs(End - Start);
  Out = Has && Out > InWaits ? Out : InWaits;
  Out = Out < Duration ? Out : Duration;
  return true;
}

void runDelayAfterForkChild() {
  ThreadState &T = threadState;
  for (RunDelayMark &M : T.RunDelayMarks)
    __atomic_store_n(&M.At, 0, __ATOMIC_RELAXED);
  T.RunDelayLast.At = 0;
  T.CpuBase.At = 0; // the child's CPU time and switches start again
  T.ProcReadSleeps = 0;
}

} // namespace __spiketrap
