//===- spiketrap_rundelay.h - Time a spike waited for a CPU -----*- C++ -*-===//
//
// A call whose thread was preempted (runnable, another thread had the CPU)
// took long without running long: that time is no one's code. The kernel
// keeps, per thread, the nanoseconds it waited for a CPU while runnable:
// run_delay, the second field of /proc/<pid>/task/<tid>/schedstat, added
// each time the thread gets a CPU back. Nothing runs in the hooks:
//   - when a call is first seen open past half its threshold (by its
//     thread's sampling tick, or the watcher's look without sampling), the
//     thread's run_delay is read (a preemption in progress then is added
//     later, so it still counts) and kept with the time;
//   - when such a call spikes, its thread reads its own run_delay: the
//     difference is the time it waited for a CPU since the watcher's
//     reading, a lower bound of the call's (a preemption that ended before
//     the watcher looked is missed; it was shorter than half the threshold).
//   - a preemption inside an interposed call that did not sleep (a write
//     to a non-blocking pipe) is no wait: a long wait compares the thread's
//     CPU time and voluntary switches with a reading from before it
//     (runDelayInWait), and that time counts as the spike's preemption.
// kernel_events=1 counts preemptions exactly (spiketrap_kernel_events.h):
// then this stays off.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_RUNDELAY_H
#define SPIKETRAP_RUNDELAY_H

#include "spiketrap_defs.h"
#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

// A thread's reading of its CPU time (CpuNs) and voluntary context switches
// (Blocked) at At (ticks; 0: none), kept by an interposed wait at its start
// (spiketrap_waits.h): a tick between the wait's end and its bookkeeping
// reads again.
struct CpuReading {
  uint64_t At, CpuNs, Blocked;
};

// What a spiking call's waits say of its preemption, for runDelaySince: the
// capture reads the thread's waits once (spiketrap_capture.cpp) and hands
// this over.
struct CallWaits {
  uint64_t PreemptedNs; // off the CPU inside its waits (runDelayInWait)
  // The ticks the thread waited from From (inside the call) to its end.
  uint64_t (*TicksSince)(const void *Waits, uint64_t From);
  const void *Waits;
};

// Where the report's preemption comes from (JSON runs[].preemption).
enum class PreemptionSource : uint8_t {
  None,         // not measured: self times may include it
  RunDelay,     // this file
  KernelEvents, // kernel_events=1
};
PreemptionSource preemptionSource();
// With None: why, for the report ("sample=0 and no hang_after=: no watcher
// thread", ...).
const char *preemptionUnknownWhy();

// The watcher's start-up (WatcherRuns: it will run): reads this thread's
// run delay once; off if the kernel does not give it.
void runDelayInit(bool WatcherRuns);
// The watcher could not start after all.
void runDelayNoWatcher();
// No more readings (the program sandboxes itself).
void runDelayStop();
// Whether run delays are read (PreemptionSource::RunDelay).
bool runDelayOn();
// The watcher's look at T (registry lock held): Start is the start of T's
// innermost call open past half its threshold, at Now. Reads T's run delay
// unless a reading since Start is kept already. With sampling, T's ticks
// read it on time, and this is for a thread whose ticks do not come (it
// waits for a CPU; the CPU-time timer does not fire).
void runDelayWatch(ThreadState &T, uint64_t Start, uint64_t Now);
// The same on T's own thread, by its sampling tick (in its signal handler)
// when sampling is on. Of two readers at once, the second skips. The tick
// came Waited ticks
// late because T waited for a CPU: that wait, which the kernel has added to
// the run delay by now, is taken out, as the watcher's reading on time
// would not have had it yet.
void runDelayWatchSelf(ThreadState &T, uint64_t Start, uint64_t Now,
                       uint64_t Waited);
// T's sampling tick, before it times the switched-off callees of T's call
// open from Start (its own time passed its threshold, in ticks): whether
// the call is late because T waited, by the report's rule (latePreempted),
// its share of time off the CPU since its reading inside that call taken
// for the whole call (false when there is no reading). That time is in no
// callee's code. One clock read (~1 us).
bool runDelayExplains(const ThreadState &T, uint64_t Start, uint64_t Now,
                      uint64_t Threshold);
// For a spike's capture, on T's own thread (async-signal-safe): how long T
// waited for a CPU in its call open from Start to End, at least, into Ns
// (with what its interposed waits found, Waits). False: not measured (no
// reading of the watcher inside the call nor a wait that found some, or
// off).
bool runDelaySince(ThreadState &T, uint64_t Start, uint64_t End,
                   const CallWaits &Waits, uint64_t &Ns);
// An interposed wait on T's own thread ran from Start to End, at least
// kLongWaitNs: the part of it its thread was off the CPU without sleeping
// (preempted inside a read or a write that does not block: no voluntary
// context switch since the reading Base kept at its start), in ticks; 0
// when not known. Reads T's CPU time and getrusage(RUSAGE_THREAD), which
// are T's next reading. Only with run delays on (kernel_events=1 counts
// preemption itself).
constexpr uint64_t kLongWaitNs = 200000;
uint64_t runDelayInWait(ThreadState &T, uint64_t Start, const CpuReading &Base,
                        uint64_t End);
// How old T's last reading may be when a noted wait begins, in ticks
// (kCpuBaseNs; UINT64_MAX: run delays off): an older one is read again
// there (runDelayWaitBegins), so a long wait's measure is off by at most
// that much CPU time before it, for two system calls (~1 us) per 500 us at
// most.
constexpr uint64_t kCpuBaseNs = 500000;
// A noted wait begins at Start: reads T's CPU time again if its last
// reading is older than that, and keeps the reading in Base (inline: on
// every noted wait; a few loads and stores).
extern uint64_t CpuBaseTicks;
void runDelayReadCpuBase(ThreadState &T, uint64_t Start, CpuReading &Base);
SPIKETRAP_ALWAYS_INLINE void runDelayWaitBegins(ThreadState &T, uint64_t Start,
                                                CpuReading &Base) {
  Base.At = 0;
  const RunDelayMark &M = T.CpuBase;
  uint64_t At = __atomic_load_n(&M.At, __ATOMIC_RELAXED);
  if (SPIKETRAP_UNLIKELY(Start - At >
                         __atomic_load_n(&CpuBaseTicks, __ATOMIC_RELAXED))) {
    runDelayReadCpuBase(T, Start, Base);
    return;
  }
  // A tick's reading that interrupts the copy changes At: none then. (Run
  // delays off: At stays 0, and Start - 0 is never over UINT64_MAX.)
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  Base.CpuNs = M.CpuNs;
  Base.Blocked = M.Blocked;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (At == __atomic_load_n(&M.At, __ATOMIC_RELAXED))
    Base.At = At;
}
// T's sampling tick read its CPU time (CpuNs) and voluntary context
// switches (Blocked) at At: the next long wait compares with it.
void runDelayNoteCpu(ThreadState &T, uint64_t At, uint64_t CpuNs,
                     uint64_t Blocked);
// In a forked child: its run delay starts again from 0.
void runDelayAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_RUNDELAY_H
