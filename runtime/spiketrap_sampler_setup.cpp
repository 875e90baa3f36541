//===- spiketrap_sampler_setup.cpp - Sampling set up and taken down -------===//
//
// Everything around the tick (spiketrap_sampler.cpp) that is not the tick:
// the start-up (the signal, the unwinder, whether sampling can run at
// all), the per-thread sample buffers (mapped by the watcher, handed from
// an exited thread to the next), each thread's timer from its making to
// its deletion (at the thread's start or the watcher's look, at its exit,
// in a forked child, around an exec), the watcher's look, and the signal
// given up when the program takes it. The timers and the signal are the
// platform's (the Ticks section of spiketrap_platform.h).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"
#include "spiketrap_sampler.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_thread.h"

#include <atomic>

namespace __spiketrap {

using namespace sampler_impl;

//===-- The watcher's side: buffers ---------------------------------------===//

namespace {

// Buffers of threads that exited, for the next; and how many the last look
// wanted. Taken under the registry lock (the watcher) and at thread exit.
SpinLock FreeLock;
SampleBuffer *FreeList;
uint32_t NumFree, Wanted;
constexpr uint32_t kMaxBuffers = 1024, kReserve = 2;
// Every buffer made, in use or free: Allocated of them.
SampleBuffer *AllBuffers[kMaxBuffers];
uint32_t Allocated;

SampleBuffer *takeFree() {
  FreeLock.lock();
  SampleBuffer *B = FreeList;
  if (B) {
    FreeList = B->NextFree;
    --NumFree;
  }
  FreeLock.unlock();
  return B;
}

void giveBack(SampleBuffer *B) {
  FreeLock.lock();
  B->NextFree = FreeList;
  FreeList = B;
  ++NumFree;
  FreeLock.unlock();
}

// Gives T buffer B, with the budget and the timer's interval a fresh
// thread starts with.
void attach(ThreadState &T, SampleBuffer *B) {
  B->PeriodNs = wantedPeriod(*B);
  B->CreditNs = int64_t(kCreditCapNs * ShareMilli / 1000);
  __atomic_store_n(&T.Samples, B, __ATOMIC_RELEASE);
}

//===-- A thread's timer --------------------------------------------------===//

// Makes thread Tid's timer (B's), started (a raw system call: timer_create
// is not async-signal-safe), unless it has one: whoever is first, the
// thread at its start or the watcher's look.
void makeTimer(SampleBuffer &B, uint32_t Tid, int Sig) {
  uint32_t None = 0;
  if (!__atomic_compare_exchange_n(&B.HasTimer, &None, 1, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    return;
  int Id = 0;
  if (!tickTimerCreate(Tid, Sig, &Id)) {
    __atomic_store_n(&B.HasTimer, 0, __ATOMIC_RELEASE);
    return;
  }
  B.TimerId = Id;
  B.LastTick = B.LastTickCpuNs = 0;
  __atomic_store_n(&B.Armed, 1, __ATOMIC_RELAXED);
  setTimer(B, B.PeriodNs);
  __atomic_store_n(&B.HasTimer, 2, __ATOMIC_RELEASE);
}

// Deletes B's timer (a tick it queued goes with it), once no handler of the
// thread nor the watcher is at it when Wait.
void deleteTimer(SampleBuffer &B) {
  if (__atomic_exchange_n(&B.HasTimer, 0, __ATOMIC_ACQ_REL) == 2)
    tickTimerDelete(B.TimerId);
  __atomic_store_n(&B.Armed, 0, __ATOMIC_RELAXED);
}

// Stops sampling on the signal the program takes, for the thread that has
// buffer B: its timer goes (a signal it had pending goes with it), once no
// handler or look is at it.
void stopBuffer(SampleBuffer &B) {
  unsigned Spins = 0;
  uint64_t Until = now() + nsToTicks(10000000);
  while (__atomic_load_n(&B.InHandler, __ATOMIC_SEQ_CST) && now() < Until)
    backOff(Spins);
  deleteTimer(B);
}

} // namespace

//===-- Start-up ----------------------------------------------------------===//

bool samplerInit() {
  if (!flags.enabled || !arch::kHasCounter)
    return false;
  // The checks below (dlsym) may call the program's (instrumented) malloc.
  RecursionGuard Guard;
  // Unwind tables looked up under the loader's lock: a sample taken while
  // the thread held it (in dlopen) would wait for itself.
  if (!tickUnwindLockFree()) {
    if (flags.verbosity >= 1 && flags.sample)
      logLine("sample=1: this C library is older than glibc 2.35 (unwind "
              "tables are looked up under the loader's lock); no sampling");
    return false;
  }
  primeUnwinder();
  if (!flags.sample)
    return false;
  // A sanitizer's interceptors take the waits the runtime interposes (so a
  // sample could interrupt one: EINTR the program never saw before), and
  // ThreadSanitizer holds asynchronous signals back until a safe point.
  if (tickUnderSanitizer()) {
    if (flags.verbosity >= 1)
      logLine("sample=1: a sanitizer's interceptors have the waiting calls "
              "the samples must not interrupt; no sampling");
    return false;
  }
  // Valgrind runs the program on a CPU of its own: its tools' waits and
  // signals are its own (an interposed sleep returned EINTR there), and its
  // thread CPU clocks are not the program's.
  if (tickUnderValgrind()) {
    if (flags.verbosity >= 1)
      logLine("sample=1: under valgrind (its signals and CPU clocks are its "
              "own); no sampling");
    return false;
  }
  tickNoteProcess();
  if (flags.sample_share < 1 || flags.sample_share > 50) {
    logLine("sample_share={}: not a percent from 1 to 50; 1 is used",
            int64_t(flags.sample_share));
    flags.sample_share = 1;
  }
  ShareMilli = uint64_t(flags.sample_share) * 1000;
  FrameNeed = tickSignalFrameSize();
  LateTicks = nsToTicks(kLateNs);
  tickFastClockCode(&VdsoLo, &VdsoHi);
  // A real-time signal the program leaves alone, from the last down
  // (programs hand them out from SIGRTMIN up); its round trip measured
  // before our handler is in place.
  int Sig = tickInstallHandler(handler, &SignalNs);
  if (!Sig)
    return false;
  __atomic_store_n(&SampleSig, Sig, __ATOMIC_RELEASE);
  tickKeepUnblocked(Sig);
  samplerRefill(); // the first threads' buffers
  return true;
}

//===-- The watcher's look ------------------------------------------------===//

SPIKETRAP_RACY_READER HotCall findHotCall(ThreadState &T, uint64_t Now) {
  HotCall H = {0, 0, UINT64_MAX};
  if (SPIKETRAP_RACY(T.Status) != StatusActive)
    return H;
  uint32_t Depth = SPIKETRAP_RACY(T.Depth);
  if (!Depth || Depth > kMaxDepth)
    return H;
  for (uint32_t J = 0; J < Depth; ++J) {
    const Frame &F = T.Frames[J];
    uint64_t Thr = resolvedThreshold(SPIKETRAP_RACY(F.Threshold));
    if (uintptr_t(SPIKETRAP_RACY(F.Addr)) == kUnderConstruction ||
        Thr == kNever)
      continue;
    uint64_t Start = SPIKETRAP_RACY(F.Start), Half = Start + Thr / 2;
    if (Now >= Half) {
      H.Depth = Depth;
      H.Start = Start;
    }
    // A deadline only for a call open a quarter of it already: a loop of
    // short calls would have the watcher chase each one.
    else if (Half < H.Next && (Now - Start) * 4 >= Thr / 2)
      H.Next = Half;
  }
  return H;
}

namespace {

struct WatcherTick {
  ThreadState *T;
  SampleBuffer *B;
  bool Sampled;
  uint64_t StoppedAt; // ticks: the thread stood still from then at least
};

// kTicksByWatcher: this look is T's tick (spiketrap_sampler_win.cpp) when
// T has a call open past half its threshold whose sample is due (a new
// call, or 1/16 of its age since the last) and the budget, earned as T
// ran since, may have room. Other looks leave T alone: stopping a thread
// costs it tens of microseconds. The tick's cost is the time T stood
// stopped (from when its registers came, to its resumption: the OS's part
// before is unknown, tens of microseconds on Windows, more under Wine).
SPIKETRAP_RACY_READER void tickFromLook(ThreadState &T, SampleBuffer &B,
                                        uint64_t Now) {
  HotCall H = findHotCall(T, Now);
  if (!H.Start) {
    B.Live = 0;
    return;
  }
  if (B.Live && H.Start == B.HotStart && Now < B.NextSample)
    return;
  uint64_t Since =
      B.LastTick && Now > B.LastTick ? ticksToNs(Now - B.LastTick) : 0;
  if (B.CreditNs + int64_t(Since * ShareMilli / 100000) <
      int64_t(B.SampleCostNs))
    return;
  walkPrepare();
  WatcherTick A = {&T, &B, false, 0};
  if (!tickByWatcher(
          B.TimerId,
          [](void *Ctx, uint64_t CpuNs, void *P) {
            auto &A = *static_cast<WatcherTick *>(P);
            A.StoppedAt = now();
            A.Sampled = tick(*A.T, *A.B, Ctx, CpuNs);
          },
          &A))
    return;
  __atomic_store_n(&B.Ticks, B.Ticks + 1, __ATOMIC_RELAXED);
  tickCost(B, A.Sampled, A.StoppedAt, ticksToNs(now() - A.StoppedAt));
}

} // namespace

SPIKETRAP_RACY_READER void samplerWatch(ThreadState &T, uint64_t Now,
                                        bool Waiting) {
  // Not in a wait (an exec among them): its timer would not fire there
  // anyway, and is seen to at a look after.
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Sig || Waiting || SPIKETRAP_RACY(T.Status) != StatusActive ||
      !SPIKETRAP_RACY(T.Depth))
    return;
  SampleBuffer *B = T.Samples;
  if (!B) {
    if (!(B = takeFree())) {
      ++Wanted;
      return;
    }
    attach(T, B);
  }
  withTimer(*B, [&](SampleBuffer &B) {
    uint32_t Has = __atomic_load_n(&B.HasTimer, __ATOMIC_ACQUIRE);
    if (!Has) {
      makeTimer(B, T.Tid, Sig);
      return;
    }
    uint32_t Off = 0;
    // Stopped by its last ticks (no call open then): started again. The
    // interval the thread chose last.
    if (Has == 2 &&
        __atomic_compare_exchange_n(&B.Armed, &Off, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED)) {
      B.LastTick = 0; // the time since is no run of the thread's
      setTimer(B, __atomic_load_n(&B.PeriodNs, __ATOMIC_RELAXED));
    }
    if (kTicksByWatcher && Has == 2)
      tickFromLook(T, B, Now);
  });
}

SPIKETRAP_RACY_READER bool samplerTicksItself(const ThreadState &T,
                                              uint64_t Now) {
  const SampleBuffer *B = SPIKETRAP_RACY(T.Samples);
  if (kTicksByWatcher || !B || !__atomic_load_n(&B->Armed, __ATOMIC_ACQUIRE))
    return false;
  uint64_t Last = SPIKETRAP_RACY(B->LastTick);
  uint64_t Period = __atomic_load_n(&B->PeriodNs, __ATOMIC_RELAXED);
  return Last && (Now <= Last || ticksToNs(Now - Last) <= 2 * Period);
}

void samplerRefill() {
  // A few in reserve: a thread's first sampling does not wait a tick.
  if (NumFree < kReserve)
    Wanted += kReserve - NumFree;
  for (; Wanted && Allocated < kMaxBuffers; --Wanted) {
    // Resident now: a page fault in the handler would land in the call
    // being sampled.
    void *P = tickMapResident(sizeof(SampleBuffer));
    if (!P)
      break;
    for (size_t Off = 0; Off < sizeof(SampleBuffer); Off += 4096)
      arch::touchForWrite(static_cast<char *>(P) + Off);
    auto *B = static_cast<SampleBuffer *>(P); // zeroed: a fresh buffer
    AllBuffers[Allocated] = B;
    __atomic_store_n(&Allocated, Allocated + 1, __ATOMIC_RELEASE);
    giveBack(B);
  }
  Wanted = 0;
}

SamplerStats samplerStats() {
  SamplerStats S = {};
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  // A buffer keeps its counts from thread to thread.
  for (uint32_t I = 0; I < N; ++I) {
    const SampleBuffer &B = *AllBuffers[I];
    S.Ticks += __atomic_load_n(&B.Ticks, __ATOMIC_RELAXED);
    S.OverBudget += __atomic_load_n(&B.OverBudget, __ATOMIC_RELAXED);
    S.SpentNs += __atomic_load_n(&B.SpentNs, __ATOMIC_RELAXED);
    S.CpuNs += __atomic_load_n(&B.SeenCpuNs, __ATOMIC_RELAXED);
    S.SampledNs += __atomic_load_n(&B.SampledNs, __ATOMIC_RELAXED);
    S.SampledTicks += __atomic_load_n(&B.SampledTicks, __ATOMIC_RELAXED);
  }
  S.Samples = __atomic_load_n(&SamplesTaken, __ATOMIC_RELAXED);
  S.Buffers = N;
  S.UnwindFaults = __atomic_load_n(&UnwindFaults, __ATOMIC_RELAXED);
  S.SignalNs = SignalNs;
  S.StackSkips = __atomic_load_n(&StackSkips, __ATOMIC_RELAXED);
  return S;
}

//===-- A thread's start and exit, fork, exec -----------------------------===//

void samplerThreadStarts(ThreadState &T) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Sig || T.Samples)
    return;
  SampleBuffer *B = takeFree();
  if (!B)
    return; // the watcher's next look finds one
  attach(T, B);
  withTimer(*B, [&](SampleBuffer &B) { makeTimer(B, T.Tid, Sig); });
}

void samplerDetach(ThreadState &T) {
  SampleBuffer *B = T.Samples;
  if (!B)
    return;
  // Against the watcher's look (makeTimer): it no longer sees this thread
  // (out of the registry's list), but one may be midway.
  unsigned Spins = 0;
  while (__atomic_load_n(&B->HasTimer, __ATOMIC_ACQUIRE) == 1)
    backOff(Spins);
  __atomic_store_n(&T.Samples, nullptr, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  deleteTimer(*B);
  B->Reading = B->Live = B->IdleTicks = 0;
  B->HotStart = B->NextSample = B->LastTick = B->LastTickCpuNs = 0;
  B->Taken = B->Session = 0;
  for (Sample &S : B->Slots) // the next thread's spikes must not see them
    S.Frames = 0;
  giveBack(B);
}

void samplerAfterForkChild() {
  // Timers are not inherited; the other threads' buffers are lost. The
  // watcher's look makes this thread's timer once its quiet time is over
  // (a child between fork and exec gets no tick).
  if (SampleBuffer *B = threadState.Samples) {
    B->HasTimer = B->Armed = B->Live = 0;
    B->LastTick = B->LastTickCpuNs = 0;
  }
  tickAfterForkChild(); // its process id; its masks are its own
  FreeLock.reset();
}

bool samplerBeforeExec() {
  ThreadState &T = threadState;
  SampleBuffer *B = T.Samples;
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!B || !Sig || T.Status != StatusActive || !tickInNotedProcess())
    return false;
  // Against the watcher's look: it makes or starts no timer for a thread
  // in a wait, and this counts InWait as a wait does.
  __atomic_fetch_add(&T.InWait, 1, __ATOMIC_SEQ_CST);
  withTimer(*B, [](SampleBuffer &B) {
    unsigned Spins = 0;
    while (__atomic_load_n(&B.HasTimer, __ATOMIC_ACQUIRE) == 1)
      backOff(Spins);
    deleteTimer(B);
  });
  // A tick raised as this thread last returned to user mode, if the
  // program blocks the signal with a system call of its own: taken now.
  tickTakePending(Sig);
  return true;
}

void samplerAfterFailedExec() {
  // The watcher's next look makes the timer again.
  __atomic_fetch_sub(&threadState.InWait, 1, __ATOMIC_SEQ_CST);
}

//===-- The signal given up -----------------------------------------------===//

void samplerSignalTaken(int Sig) {
  int Ours = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Ours || Sig != Ours)
    return;
  // The program's action must be all its own: no more of our signals, and
  // none of ours still on the way. Sampling stops for the run.
  __atomic_store_n(&SampleSig, 0, __ATOMIC_SEQ_CST);
  tickKeepUnblocked(0);
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    stopBuffer(*AllBuffers[I]);
  if (flags.verbosity >= 1)
    logLine("sample: the program takes signal {}; sampling stops", Sig);
}

// The program sandboxes itself (spiketrap_sandbox_linux.cpp): as above, silently.
void samplerStopForRun() {
  if (!__atomic_exchange_n(&SampleSig, 0, __ATOMIC_SEQ_CST))
    return;
  tickKeepUnblocked(0);
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    stopBuffer(*AllBuffers[I]);
}

} // namespace __spiketrap
