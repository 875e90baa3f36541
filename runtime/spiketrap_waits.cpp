//===- spiketrap_waits.cpp - Time spent waiting in the C library ----------===//
//
// The waiting calls of the C library (spiketrap_waits.inc; Windows's:
// spiketrap_waits_win.inc): the real
// functions (found with nextDefinition, so errno, return values and
// cancellation are the C library's own; a static program's come from
// spiketrap_static_linux.cpp), the bookkeeping every wrapper shares
// (waitBegin/waitEnd: on a thread whose hooks record and that has an open
// frame, note when the wait began and ended in the thread's WaitRing), and
// the interposed lock calls (no cancellation points).
// Nothing here runs in the hooks; a thread with nothing open, or the
// runtime's own work (Busy), pays two direct calls, a TLS load and an
// indirect call. A lock is timed only when a try-lock first fails: an
// uncontended lock costs a try-lock, as before.
// The generated wrappers, with unwind tables, and syscall():
// spiketrap_waits_calls_linux.cpp.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_waits.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_platform.h"
#include "spiketrap_record.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_sampler.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

// The real functions' names, by WaitCall: members of one constant, named
// by their offsets in it (no pointers: no relocations to apply at start).
struct Names {
  char None[2];
#define SPIKETRAP_WAIT(Name, ...) char Name[sizeof(#Name)];
#define SPIKETRAP_WAIT_OWN(Name, ...) char Name[sizeof(#Name)];
#include SPIKETRAP_WAITS_INC
};
constexpr Names AllNames = {
    "?",
#define SPIKETRAP_WAIT(Name, ...) #Name,
#define SPIKETRAP_WAIT_OWN(Name, ...) #Name,
#include SPIKETRAP_WAITS_INC
};
static_assert(sizeof(Names) <= UINT16_MAX, "offsets are 16 bits");
constexpr uint16_t NameAt[kNumWaitCalls] = {
    offsetof(Names, None),
#define SPIKETRAP_WAIT(Name, ...) offsetof(Names, Name),
#define SPIKETRAP_WAIT_OWN(Name, ...) offsetof(Names, Name),
#include SPIKETRAP_WAITS_INC
};
const char *realName(unsigned I) {
  return reinterpret_cast<const char *>(&AllNames) + NameAt[I];
}
void *Real[kNumWaitCalls];

// The lookup runs once: built for size (as -Oz) in a file whose per-call
// part is -O2.
SPIKETRAP_MINSIZE_BEGIN

// dlsym may allocate, and an allocator may lock: a wait reached from inside
// the lookup on the same thread must not look up again.
__thread bool Resolving;

void resolveAll() {
  if (Resolving)
    return;
  Resolving = true;
  int Saved = errno;
  for (unsigned I = 1; I < kNumWaitCalls; ++I)
    if (!__atomic_load_n(&Real[I], __ATOMIC_ACQUIRE)) {
      void *F = nextDefinition(realName(I));
      __atomic_store_n(&Real[I], F ? F : staticWait(I), __ATOMIC_RELEASE);
    }
  errno = Saved;
  Resolving = false;
}

// The real function I. While this thread is inside resolveAll (a wait
// reached from dlsym), the static program's: never null.
SPIKETRAP_NOINLINE void *resolveOne(unsigned I) {
  resolveAll();
  void *F = __atomic_load_n(&Real[I], __ATOMIC_ACQUIRE);
  return F ? F : staticWait(I);
}
SPIKETRAP_MINSIZE_END
SPIKETRAP_ALWAYS_INLINE void *realFn(unsigned I) {
  void *F = __atomic_load_n(&Real[I], __ATOMIC_ACQUIRE);
  return SPIKETRAP_LIKELY(F) ? F : resolveOne(I);
}
template <typename Fn> SPIKETRAP_ALWAYS_INLINE Fn real(unsigned I) {
  return reinterpret_cast<Fn>(realFn(I));
}

// waits=0: the wrappers only call the C library's functions.
bool WaitsOn;
// kLongWaitNs in ticks.
uint64_t LongWaitTicks = UINT64_MAX;

// The innermost open frame, when this thread's waits are noted: its hooks
// record (not new, busy, paused or gone) and a call is open.
SPIKETRAP_ALWAYS_INLINE const spiketrap_desc *waiter(const ThreadState &T) {
  uint32_t Depth = T.Depth;
  if (T.Status != StatusActive || !Depth || !WaitsOn)
    return nullptr;
  return T.Frames[(Depth < kMaxDepth ? Depth : kMaxDepth) - 1].Desc;
}

} // namespace

void *waitRealFn(uint32_t Call) { return realFn(Call); }

SPIKETRAP_NOINLINE void waitBegin(WaitScope &W, uint32_t Call) {
  ThreadState &T = threadState;
  W.Call = Call;
  W.Real = realFn(W.Call);
  // The watcher's look reads InWait: a thread in a wait is not running (its
  // run delay is not read then), and gets no timer of the sampler's until
  // after (spiketrap_sampler.h: a tick on the thread's CPU clock never
  // interrupts a wait; nothing else is held back here).
  W.Marked = T.Status == StatusActive;
  if (W.Marked)
    __atomic_fetch_add(&T.InWait, 1, __ATOMIC_RELAXED);
  W.Desc = waiter(T);
  if (W.Desc) {
    W.Start = now();
    // A reading of the thread's CPU time not long before it, for
    // runDelayInWait at its end (run delays on).
    runDelayWaitBegins(T, W.Start, W.Base);
  }
}

// The slot is reserved with an atomic add: a signal handler that waits in
// between takes the next one. End is written last (and cleared first), so a
// reader on this thread (a spike in a handler) skips a slot being written.
SPIKETRAP_NOINLINE void waitEnd(const WaitScope &W) {
  if (W.Marked)
    __atomic_fetch_sub(&threadState.InWait, 1, __ATOMIC_RELAXED);
  if (!W.Desc)
    return;
  int Saved = errno;
  uint64_t End = now();
  // A long wait may have been time off the CPU that was no sleep (preempted
  // inside a write that does not block): not a wait. Short ones pay nothing.
  uint64_t Preempted = 0;
  if (End - W.Start >= LongWaitTicks)
    Preempted = runDelayInWait(threadState, W.Start, W.Base, End);
  if (Preempted)
    End = End - W.Start > Preempted ? End - Preempted : W.Start + 1;
  WaitRing &R = threadState.Waits;
  uint64_t N = __atomic_fetch_add(&R.Next, 1, __ATOMIC_RELAXED);
  WaitEntry &E = R.Entries[N % kWaitSlots];
  if (N >= kWaitSlots) { // the entry overwritten is lost to later spikes
    uint64_t Old = __atomic_load_n(&E.End, __ATOMIC_RELAXED);
    if (Old > __atomic_load_n(&R.Evicted, __ATOMIC_RELAXED))
      __atomic_store_n(&R.Evicted, Old, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&E.End, 0, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  E.Start = W.Start;
  E.Desc = W.Desc;
  R.Calls[N % kWaitSlots] = uint8_t(W.Call);
  uint32_t Us = 0;
  if (SPIKETRAP_UNLIKELY(Preempted)) {
    uint64_t V = ticksToNs(Preempted) / 1000;
    Us = V < UINT32_MAX ? uint32_t(V) : UINT32_MAX;
  }
  R.PreemptedUs[N % kWaitSlots] = Us;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  __atomic_store_n(&E.End, End > W.Start ? End : W.Start + 1, __ATOMIC_RELAXED);
  errno = Saved;
}

namespace {

// The contended half of timedLock: time the real lock.
template <typename Lock, typename... A>
SPIKETRAP_NOINLINE int lockSlow(uint32_t Call, Lock *L, A... Args) {
  WaitScope W;
  waitBegin(W, Call);
  int R = reinterpret_cast<int (*)(Lock *, A...)>(W.Real)(L, Args...);
  waitEnd(W);
  return R;
}

// A lock: try first (the C library's try-lock, called directly: it is not
// interposed), and time the real call only when the try fails (an
// uncontended lock costs one more call). Any other answer of the
// try-lock is the lock's own: taken (0, EOWNERDEAD) or an error it would
// return too (EINVAL, EAGAIN for a recursion count at its limit). The
// C library's lock functions return errors and leave errno alone. Args: a
// clock lock's clock and deadline.
template <typename Lock, typename... A>
SPIKETRAP_ALWAYS_INLINE int timedLock(uint32_t Call, int (*Try)(Lock *),
                                      Lock *L, A... Args) {
  ThreadState &T = threadState;
  if (T.Status == StatusActive && T.Depth && WaitsOn) {
    int R = Try(L);
    return R != EBUSY ? R : lockSlow(Call, L, Args...);
  }
  return real<int (*)(Lock *, A...)>(Call)(L, Args...);
}

// A clock lock tries first only with a deadline glibc takes: it refuses
// another clock, and a read-write lock a bad time, even when the lock is
// free (EINVAL).
template <typename Lock>
SPIKETRAP_ALWAYS_INLINE int clockLock(uint32_t Call, int (*Try)(Lock *),
                                      Lock *L, clockid_t Clock,
                                      const timespec *Ts) {
  if ((Clock == CLOCK_REALTIME || Clock == CLOCK_MONOTONIC) && Ts &&
      Ts->tv_nsec >= 0 && Ts->tv_nsec < 1000000000)
    return timedLock(Call, Try, L, Clock, Ts);
  return real<int (*)(Lock *, clockid_t, const timespec *)>(Call)(L, Clock, Ts);
}

} // namespace

// What runs at start-up, for a report or for a spike: for size too.
SPIKETRAP_MINSIZE_BEGIN
const char *waitCallName(uint32_t Call) {
#define SPIKETRAP_WAIT(...)
#define SPIKETRAP_WAIT_OWN(...)
#define SPIKETRAP_WAIT_SHOWN_AS(Name, Shown)                                   \
  if (Call == Wait_##Name)                                                     \
    return Shown;
#include SPIKETRAP_WAITS_INC
  return realName(Call && Call < kNumWaitCalls ? Call : 0);
}

void waitsInit() {
  WaitsOn = flags.waits;
  LongWaitTicks = nsToTicks(kLongWaitNs);
  if (SPIKETRAP_INTERPOSE_WAITS)
    resolveAll();
  waitsInstall();
}

WaitKind waitKind(uint32_t Call) {
  static constexpr struct Kinds {
    uint8_t K[kNumWaitCalls];
    constexpr Kinds() : K() {
#define SPIKETRAP_WAIT(...)
#define SPIKETRAP_WAIT_OWN(...)
#define SPIKETRAP_WAIT_IDLE(Name, Kind) K[Wait_##Name] = Wait##Kind;
#include SPIKETRAP_WAITS_INC
    }
  } Table;
  return Call < kNumWaitCalls ? WaitKind(Table.K[Call]) : WaitStall;
}

namespace {

// Copies T's complete waits that end after From (at most kWaitSlots, in
// ring order) into Out; their number.
uint32_t copyWaits(const ThreadState &T, uint64_t From, WaitCopy *Out) {
  const WaitRing &W = T.Waits;
  uint64_t Written = __atomic_load_n(&W.Next, __ATOMIC_RELAXED);
  uint32_t Slots = Written < kWaitSlots ? uint32_t(Written) : kWaitSlots;
  uint32_t N = 0;
  for (uint32_t I = 0; I < Slots; ++I) {
    const WaitEntry &E = W.Entries[I];
    uint64_t EEnd = __atomic_load_n(&E.End, __ATOMIC_RELAXED);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    WaitCopy C = {E.Start, EEnd, E.Desc, W.Calls[I], false, W.PreemptedUs[I]};
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // Being written (by a handler that interrupted us), or rewritten since.
    if (!EEnd || EEnd != __atomic_load_n(&E.End, __ATOMIC_RELAXED) ||
        EEnd <= From)
      continue;
    Out[N++] = C;
  }
  return N;
}

// Marks which of the N waits were idle (waitKind). RStart, RThreshold: the
// outermost open call that can be reported (RThreshold 0: there is none).
void classify(WaitCopy *W, uint32_t N, bool MainThread, uint64_t RStart,
              uint64_t RThreshold) {
  for (uint32_t I = 0; I < N; ++I) {
    WaitKind K = waitKind(W[I].Call);
    if (K != WaitWork) {
      W[I].Idle = K != WaitStall;
      continue;
    }
    if (MainThread) {
      W[I].Idle = false;
      continue;
    }
    if (!RThreshold || W[I].Start <= RStart) {
      W[I].Idle = true;
      continue;
    }
    // What that call had run before this wait: its time so far less the
    // waits inside it that had ended.
    uint64_t Ran = W[I].Start - RStart;
    for (uint32_t J = 0; J < N; ++J)
      if (J != I && W[J].Start >= RStart && W[J].End <= W[I].Start)
        Ran -= W[J].End - W[J].Start < Ran ? W[J].End - W[J].Start : Ran;
    W[I].Idle = Ran * kIdleShare < RThreshold;
  }
}

// The part of W inside [From, To).
uint64_t overlap(const WaitCopy &W, uint64_t From, uint64_t To) {
  uint64_t S = W.Start > From ? W.Start : From, E = W.End < To ? W.End : To;
  return E > S ? E - S : 0;
}

} // namespace

void copySpikeWaits(const ThreadState &T, uint32_t Depth, bool MainThread,
                    SpikeWaits &Out) {
  Out.N = 0;
  Out.LowerBound = false;
  if (!Depth || Depth > kMaxDepth)
    return;
  // The outermost call that can be reported: what a worker's wait for
  // work is judged by.
  uint32_t R = 0;
  while (R < Depth && resolvedThreshold(T.Frames[R].Threshold) == kNever)
    ++R;
  Out.LowerBound = __atomic_load_n(&T.Waits.Evicted, __ATOMIC_RELAXED) >
                   T.Frames[Depth - 1].Start;
  // Waits before the spiking call's start still tell what the outer call
  // ran.
  Out.N = copyWaits(T, T.Frames[0].Start, Out.W);
  classify(Out.W, Out.N, MainThread, R < Depth ? T.Frames[R].Start : 0,
           R < Depth ? resolvedThreshold(T.Frames[R].Threshold) : 0);
}

void sumWaits(const SpikeWaits &W, SpikeLevel *Level, uint32_t N,
              uint64_t End, WaitSummary &Out) {
  Out = {0, nullptr, WaitNone, W.LowerBound, false};
  for (uint32_t L = 0; L < N; ++L)
    Level[L].WaitTicks = Level[L].IdleTicks = 0;
  if (!N)
    return;
  uint64_t Top = Level[N - 1].Start;
  for (uint32_t I = 0; I < W.N; ++I) {
    // Levels start later the deeper they are: each gets the part of the
    // wait after its start.
    for (uint32_t L = 0; L < N; ++L) {
      uint64_t Ticks = overlap(W.W[I], Level[L].Start, End);
      if (!Ticks)
        break;
      Level[L].WaitTicks += Ticks;
      if (W.W[I].Idle)
        Level[L].IdleTicks += Ticks;
    }
    uint64_t Ticks = overlap(W.W[I], Top, End);
    if (Ticks > Out.LongestTicks)
      Out = {Ticks, W.W[I].Desc, W.W[I].Call, W.LowerBound, W.W[I].Idle};
  }
}

uint64_t idleTicks(const SpikeWaits &W, uint64_t From, uint64_t End,
                   uint32_t *Call) {
  *Call = WaitNone;
  uint64_t Idle = 0, Longest = 0;
  for (uint32_t I = 0; I < W.N; ++I)
    if (uint64_t Ticks = W.W[I].Idle ? overlap(W.W[I], From, End) : 0) {
      Idle += Ticks;
      if (Ticks > Longest)
        Longest = Ticks, *Call = W.W[I].Call;
    }
  return Idle;
}

uint64_t waitTicks(const SpikeWaits &W, uint64_t From, uint64_t End) {
  uint64_t Ticks = 0;
  for (uint32_t I = 0; I < W.N; ++I)
    Ticks += overlap(W.W[I], From, End);
  return Ticks;
}

uint64_t waitsPreemptedNs(const SpikeWaits &W, uint64_t From, uint64_t To) {
  uint64_t Ns = 0;
  for (uint32_t I = 0; I < W.N; ++I)
    if (W.W[I].Start >= From && W.W[I].End <= To)
      Ns += uint64_t(W.W[I].PreemptedUs) * 1000;
  return Ns;
}

SPIKETRAP_MINSIZE_END

} // namespace __spiketrap

#if SPIKETRAP_INTERPOSE_WAITS
using namespace __spiketrap;

// The calls that are no cancellation points: no unwind tables needed.
SPIKETRAP_INTERPOSE int pthread_mutex_lock(pthread_mutex_t *M) {
  return timedLock(Wait_pthread_mutex_lock, pthread_mutex_trylock, M);
}

SPIKETRAP_INTERPOSE int pthread_rwlock_rdlock(pthread_rwlock_t *L) {
  return timedLock(Wait_pthread_rwlock_rdlock, pthread_rwlock_tryrdlock, L);
}

SPIKETRAP_INTERPOSE int pthread_rwlock_wrlock(pthread_rwlock_t *L) {
  return timedLock(Wait_pthread_rwlock_wrlock, pthread_rwlock_trywrlock, L);
}

// Rarer than plain locks: for size.
SPIKETRAP_MINSIZE_BEGIN
SPIKETRAP_INTERPOSE int pthread_mutex_clocklock(pthread_mutex_t *M,
                                                clockid_t Clock,
                                                const timespec *Ts) {
  return clockLock(Wait_pthread_mutex_clocklock, pthread_mutex_trylock, M,
                   Clock, Ts);
}

SPIKETRAP_INTERPOSE int pthread_rwlock_clockrdlock(pthread_rwlock_t *L,
                                                   clockid_t Clock,
                                                   const timespec *Ts) {
  return clockLock(Wait_pthread_rwlock_clockrdlock, pthread_rwlock_tryrdlock, L,
                   Clock, Ts);
}

SPIKETRAP_INTERPOSE int pthread_rwlock_clockwrlock(pthread_rwlock_t *L,
                                                   clockid_t Clock,
                                                   const timespec *Ts) {
  return clockLock(Wait_pthread_rwlock_clockwrlock, pthread_rwlock_trywrlock, L,
                   Clock, Ts);
}
SPIKETRAP_MINSIZE_END

namespace __spiketrap {
void sandboxComing() {
  if (!sandboxNote())
    return;
  samplerStopForRun();
  runDelayStop();
}
} // namespace __spiketrap

#endif
