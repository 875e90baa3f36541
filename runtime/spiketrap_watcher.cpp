//===- spiketrap_watcher.cpp - The runtime's watcher thread ---------------===//
//
// One background thread that looks at every thread's open calls without
// touching the hooks. With sample=1 the threads tick themselves
// (spiketrap_sampler.cpp: each samples its own calls open past half their
// threshold, and reads its run delay then), and the watcher looks every
// 10 ms while a thread runs, every 100 ms while all wait. Without sampling
// it looks every millisecond, or sooner when a call open for a while will
// pass half its threshold before that, for the run delay, and every 100 ms
// while all threads wait (or at a hang deadline). Each time it:
//   1. applies the patched sites' pending flips (applyPendingPatches);
//   2. with sample=1, starts the ticks of a thread that has a call open and
//      does not tick (samplerWatch);
//   3. without sampling, reads the run delay of a thread with a call open
//      past half its threshold once per such call (spiketrap_rundelay.h:
//      how long it waits for a CPU);
//   4. with hang_after=, looks for calls stuck that long, every quarter of
//      it (spiketrap_watchdog.cpp).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_watcher.h"
#include "spiketrap_background.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_patch.h"
#include "spiketrap_platform.h"
#include "spiketrap_procread.h"
#include "spiketrap_registry.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_sampler.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_thread.h"
#include "spiketrap_watchdog.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

//===-- The program's end (its last thread left with pthread_exit) --------===//

namespace {
// Without /proc (a container or chroot that has none): the threads the
// registry knew have all gone, the first one included; is any thread left
// that never ran a hook? The OS is asked for every thread id once
// (scanThreadIds: ~1.4 s on Linux), later looks only for the threads found.
uint32_t Unknown[64];
uint32_t NumUnknown;

bool goneWithoutProc() {
  if (!registeredThreadsGone())
    return false;
  uint32_t Kept = 0;
  for (uint32_t I = 0; I < NumUnknown; ++I)
    if (threadAlive(Unknown[I]))
      Unknown[Kept++] = Unknown[I];
  NumUnknown = Kept;
  if (NumUnknown)
    return false;
  NumUnknown = scanThreadIds(Unknown, sizeof(Unknown) / sizeof(Unknown[0]),
                             backgroundThreadIs);
  return NumUnknown == 0;
}

bool programThreadsGone() {
  uint32_t Ours = backgroundThreads();
  uint32_t N = processThreads();
  if (!N && procUnreadable())
    return goneWithoutProc();
  if (!N || N > Ours + 1)
    return false;
  if (N <= Ours)
    return true;
  // One more: the first thread, which stays counted when it ends before the
  // others, is it still running?
  if (!firstThreadEnded())
    return false;
  // Counted again now that it has ended, and starts no thread: the first
  // count may be from before it started its last ones.
  N = processThreads();
  return N && N <= Ours + 1;
}

bool Started, Sampling, Hangs, Preemption;
uint64_t Looks; // verbosity=1's count
pthread_t Thread;
int Stop; // the thread is asked to end (a futex word: it sleeps on it)
constexpr uint64_t kTickNs = 1000000;
// The look's period while threads tick themselves (sampling): it only
// starts the ticks of a thread that has none.
constexpr uint64_t kSlowTickNs = 10000000;
// A doze ends after this many ticks at most: a program whose threads all
// ended with pthread_exit is noticed (programThreadsGone).
constexpr uint64_t kCountTicks = 100;
// The earliest wake-up after a tick: a deadline closer than this waits for it.
constexpr uint64_t kMinSleepNs = 20000;
uint64_t TickTicks, SlowTickTicks, MinSleepTicks;
// In a forked child the watcher keeps still this long first (ticks; 0:
// not): a child between fork and exec moves its descriptors about (dup2
// onto 0-2, close and reopen) as the only thread it expects, and a look
// opens /proc files (the lowest free numbers) and signals the thread.
constexpr uint64_t kForkQuietNs = 100000000;
uint64_t QuietUntil;

struct Look {
  uint64_t Now, Next;
  bool Running; // a thread is not waiting in an interposed call
};

void look(ThreadState &T, void *P) {
  auto &L = *static_cast<Look *>(P);
  bool Waiting = __atomic_load_n(&T.InWait, __ATOMIC_SEQ_CST);
  L.Running = L.Running || !Waiting;
  HotCall H = findHotCall(T, L.Now);
  if (Sampling)
    samplerWatch(T, L.Now, Waiting);
  // Where the looks are the ticks too, a call about to pass half its
  // threshold is looked at then.
  if ((!Sampling || kTicksByWatcher) && H.Next < L.Next)
    L.Next = H.Next;
  // Not while it waits (an idle event loop would cost a read per call): at
  // a look after the wait, if the call is still open. Nor for a thread
  // that ticks: its tick reads it (one /proc file where the watcher reads
  // two); the watcher reads for one whose ticks are late (off the CPU).
  if (H.Start && !Waiting && !(Sampling && samplerTicksItself(T, L.Now)))
    runDelayWatch(T, H.Start, L.Now);
}

// Sleeps until WakeTicks or until asked to stop (a futex wait on Stop).
void sleepUntil(uint64_t NowTicks, uint64_t WakeTicks) {
  uint64_t Ns = ticksToNs(WakeTicks - NowTicks);
  timespec T{time_t(Ns / 1000000000), long(Ns % 1000000000)};
  futexWait(&Stop, 0, &T);
}

void loop(void *) {
  // The deadlines are tens of microseconds apart; the default timer slack
  // (50 us) would blur them.
  setTimerSlackNs(10000);
  if (uint64_t Until = __atomic_exchange_n(&QuietUntil, 0, __ATOMIC_RELAXED))
    for (uint64_t Now;
         !__atomic_load_n(&Stop, __ATOMIC_ACQUIRE) && (Now = now()) < Until;)
      sleepUntil(Now, Until);
  uint64_t NextCount = 0;
  while (!__atomic_load_n(&Stop, __ATOMIC_ACQUIRE)) {
    // The program sandboxed itself: no more looks (they read /proc and
    // signal threads), only the wait for the end.
    if (sandboxed()) {
      futexWait(&Stop, 0, nullptr);
      continue;
    }
    uint64_t Now = now();
    ++Looks;
    // A program whose last thread ended with pthread_exit ends, as it would
    // without us (the C library's exit(0)), a tenth of a second later.
    if (Now >= NextCount) {
      if (programThreadsGone())
        exit(0);
      NextCount = Now + kCountTicks * TickTicks;
    }
    applyPendingPatches();
    Look L = {Now, UINT64_MAX, false};
    if (Sampling || Preemption) {
      forEachThread(look, &L);
      if (Sampling)
        samplerRefill();
    }
    // Preemption without sampling: every tick while a thread runs; until a
    // thread runs (or the next look for the program's end) while all wait.
    // With sampling the threads tick themselves, unless the looks are
    // their ticks (kTicksByWatcher): then a thread that starts or leaves a
    // wait unseen is looked at within a slow tick.
    uint64_t Tick = Sampling && kTicksByWatcher
                        ? Now + (L.Running ? TickTicks : SlowTickTicks)
                    : !L.Running ? NextCount
                    : Sampling   ? Now + SlowTickTicks
                                 : Now + TickTicks;
    if (Tick < L.Next)
      L.Next = Tick;
    if (Hangs) {
      uint64_t Next = watchdogTick(Now);
      if (Next < L.Next)
        L.Next = Next;
    }
    if (L.Next < Now + MinSleepTicks)
      L.Next = Now + MinSleepTicks;
    sleepUntil(Now, L.Next);
  }
}

// verbosity=1: what the watcher cost (its thread's CPU time) and did.
void printStats() {
  timespec Cpu = {};
  clockid_t Clock;
  if (__atomic_load_n(&Started, __ATOMIC_ACQUIRE) &&
      pthread_getcpuclockid(Thread, &Clock) == 0)
    clock_gettime(Clock, &Cpu);
  SamplerStats S = samplerStats();
  uint64_t Permille = S.CpuNs ? S.SpentNs * 100000 / S.CpuNs : 0;
  uint64_t Plain = S.Ticks > S.SampledTicks ? S.Ticks - S.SampledTicks : 0;
  logLine("watcher: {} looks, {} us of CPU; {} samples in {} ticks of the "
          "threads ({} held back by the budget), costing them {} us of {} us "
          "of CPU ({}.{}{}%: a tick {} ns, one with a sample {} ns, a "
          "signal's round trip {} ns), {} sample buffers, {} samples dropped "
          "for unwind tables that faulted, {} ticks skipped for want of room "
          "on an alternate signal stack",
          Looks, uint64_t(Cpu.tv_sec) * 1000000 + uint64_t(Cpu.tv_nsec) / 1000,
          S.Samples, S.Ticks, S.OverBudget, S.SpentNs / 1000, S.CpuNs / 1000,
          Permille / 1000, Permille / 100 % 10, Permille / 10 % 10,
          Plain ? (S.SpentNs - S.SampledNs) / Plain : 0,
          S.SampledTicks ? S.SampledNs / S.SampledTicks : 0, S.SignalNs,
          S.Buffers, S.UnwindFaults, S.StackSkips);
  ProcReaderStats R = procReaderStats();
  logLine("/proc reader: {} readings, {} failed, {} us of CPU; its callers "
          "waited {} us",
          R.Readings, R.Failed, R.CpuNs / 1000, R.WaitNs / 1000);
}

// The /proc reader's thread (spiketrap_procread.h). Its stack holds a few
// words: 64 KiB, not 8 MiB of a program's address-space limit.
void startReader() {
  if (!procReaderPrepare())
    return;
  pthread_t T;
  bool Ok = startBackgroundThread(procReaderLoop, nullptr, &T, 64 * 1024);
  procReaderStarted(Ok ? &T : nullptr);
}

void stopReader() {
  pthread_t T;
  if (!procReaderStopping(T))
    return;
  joinBackgroundThread(T);
  procReaderStopped();
}

void startThread() {
  startReader();
  __atomic_store_n(&Stop, 0, __ATOMIC_RELAXED);
  bool Ok = startBackgroundThread(loop, nullptr, &Thread);
  __atomic_store_n(&Started, Ok, __ATOMIC_RELEASE);
  if (!Ok) {
    logLine("cannot start the watcher thread; calls are not sampled{}",
            Hangs ? " and hangs not reported" : "");
    // The JSON report's options say what was in effect.
    flags.sample = false;
    flags.hang_after = 0;
    runDelayNoWatcher();
  }
}

} // namespace

void watcherStart() {
  if (!flags.enabled)
    return;
  Hangs = watchdogInit();
  Sampling = samplerInit();
  // Preemption needs the watcher's looks: it comes with sampling (or
  // hang_after=). Not where sampling cannot be (under a sanitizer, whose
  // ThreadSanitizer would take the watcher's racy reads of other threads'
  // frames for the program's races; an old C library).
  runDelayInit(Hangs || Sampling);
  Preemption = preemptionSource() == PreemptionSource::RunDelay;
  if (!Hangs && !Sampling && !Preemption)
    return backgroundMeasureThreadRoot();
  TickTicks = nsToTicks(kTickNs);
  SlowTickTicks = nsToTicks(kSlowTickNs);
  MinSleepTicks = nsToTicks(kMinSleepNs);
  if (flags.verbosity >= 1)
    atexit(printStats);
  startThread();
}

bool watcherPause() {
  if (!__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
    return false;
  __atomic_store_n(&Stop, 1, __ATOMIC_RELEASE);
  futexWake(&Stop);
  joinBackgroundThread(Thread);
  stopReader();
  __atomic_store_n(&Started, false, __ATOMIC_RELEASE);
  return true;
}

void watcherResume() { startThread(); }

void watcherAfterForkChild() {
  procReaderAfterForkChild();
  watchdogAfterForkChild();
  samplerAfterForkChild();
  runDelayAfterForkChild();
  if (__atomic_load_n(&Started, __ATOMIC_ACQUIRE)) {
    QuietUntil = now() + nsToTicks(kForkQuietNs);
    startThread();
  }
}

} // namespace __spiketrap
