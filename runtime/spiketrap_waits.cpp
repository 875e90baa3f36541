//===- spiketrap_waits.cpp - Time spent waiting in the C library ----------===//
//
// Interposes the waiting calls of the C library (spiketrap_waits.inc): each
// calls the real function (found with dlsym(RTLD_NEXT), so errno, return
// values and cancellation are the C library's own) and, on a thread whose
// hooks record and that has an open frame, notes when the wait began and
// ended in the thread's WaitRing. Nothing here runs in the hooks; a thread
// with nothing open, or the runtime's own work (Busy), pays one TLS load and
// an indirect call. A lock is timed only when a try-lock first fails: an
// uncontended lock costs a try-lock, as before.
//
// This file is compiled with unwind tables: a thread cancelled inside the
// real call (a cancellation point) unwinds through the wrapper.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_waits.h"
#include "spiketrap_flags.h"
#include "spiketrap_clock.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// Sanitizers intercept these same functions; a definition of ours would
// hide their interceptors from the program (TSan would stop seeing locks).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPIKETRAP_INTERPOSE_WAITS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define SPIKETRAP_INTERPOSE_WAITS 0
#endif
#endif
#ifndef SPIKETRAP_INTERPOSE_WAITS
#define SPIKETRAP_INTERPOSE_WAITS 1
#endif

namespace __spiketrap {

namespace {

// The real functions: the interposed calls by kind, then the try-locks.
enum Helper : unsigned {
  TryMutex = kNumWaitCalls,
  TryRdlock,
  TryWrlock,
  kNumReal
};
const char *const RealNames[kNumReal] = {
    nullptr, // WaitNone
#define SPIKETRAP_WAIT(Name, ...) #Name,
#define SPIKETRAP_WAIT_OWN(Name) #Name,
#include "spiketrap_waits.inc"
    "pthread_mutex_trylock",
    "pthread_rwlock_tryrdlock",
    "pthread_rwlock_trywrlock",
};
void *Real[kNumReal];
// dlsym may allocate, and an allocator may lock: a wait reached from inside
// the lookup on the same thread must not look up again.
__thread bool Resolving;

void resolveAll() {
  if (Resolving)
    return;
  Resolving = true;
  int Saved = errno;
  for (unsigned I = 1; I < kNumReal; ++I)
    if (!__atomic_load_n(&Real[I], __ATOMIC_ACQUIRE))
      __atomic_store_n(&Real[I], dlsym(RTLD_NEXT, RealNames[I]),
                       __ATOMIC_RELEASE);
  errno = Saved;
  Resolving = false;
}

template <typename Fn> SPIKETRAP_ALWAYS_INLINE Fn real(unsigned I) {
  void *F = __atomic_load_n(&Real[I], __ATOMIC_ACQUIRE);
  if (SPIKETRAP_UNLIKELY(!F)) {
    resolveAll();
    F = __atomic_load_n(&Real[I], __ATOMIC_ACQUIRE);
  }
  return reinterpret_cast<Fn>(F);
}

// waits=0: the wrappers only call the C library's functions.
bool WaitsOn;

// The innermost open frame, when this thread's waits are noted: its hooks
// record (not new, busy, paused or gone) and a call is open.
SPIKETRAP_ALWAYS_INLINE const spiketrap_desc *waiter(const ThreadState &T) {
  uint32_t Depth = T.Depth;
  if (T.Status != StatusActive || !Depth || !WaitsOn)
    return nullptr;
  return T.Frames[(Depth < kMaxDepth ? Depth : kMaxDepth) - 1].Desc;
}

// Notes a wait of Call from Desc that began at Start and ends now. The slot
// is reserved with an atomic add: a signal handler that waits in between
// takes the next one. End is written last (and cleared first), so a reader
// on this thread (a spike in a handler) skips a slot being written.
SPIKETRAP_NOINLINE void noteWait(ThreadState &T, WaitCall Call,
                                 const spiketrap_desc *Desc, uint64_t Start) {
  int Saved = errno;
  uint64_t End = now();
  WaitRing &W = T.Waits;
  uint64_t N = __atomic_fetch_add(&W.Next, 1, __ATOMIC_RELAXED);
  WaitEntry &E = W.Entries[N % kWaitSlots];
  if (N >= kWaitSlots) { // the entry overwritten is lost to later spikes
    uint64_t Old = __atomic_load_n(&E.End, __ATOMIC_RELAXED);
    if (Old > __atomic_load_n(&W.Evicted, __ATOMIC_RELAXED))
      __atomic_store_n(&W.Evicted, Old, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&E.End, 0, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  E.Start = Start;
  E.Desc = Desc;
  W.Calls[N % kWaitSlots] = Call;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  __atomic_store_n(&E.End, End > Start ? End : Start + 1, __ATOMIC_RELAXED);
  errno = Saved;
}

// futex operations that sleep.
bool futexWaits(long Op) {
  switch (Op & FUTEX_CMD_MASK) {
  case FUTEX_WAIT:
  case FUTEX_WAIT_BITSET:
  case FUTEX_LOCK_PI:
  case FUTEX_WAIT_REQUEUE_PI:
#ifdef FUTEX_LOCK_PI2
  case FUTEX_LOCK_PI2:
#endif
    return true;
  default:
    return false;
  }
}

// The contended half of timedLock: time the real lock.
template <typename Lock>
SPIKETRAP_NOINLINE int lockSlow(Lock *L, WaitCall Call, ThreadState &T) {
  auto Real = real<int (*)(Lock *)>(Call);
  const spiketrap_desc *D = waiter(T);
  uint64_t Start = now();
  int R = Real(L);
  if (D)
    noteWait(T, Call, D, Start);
  return R;
}

// A lock: try first, and time the real call only when the try fails (an
// uncontended lock costs one more indirect call). Any other answer of the
// try-lock is the lock's own: taken (0, EOWNERDEAD) or an error it would
// return too (EINVAL, EAGAIN for a recursion count at its limit). The
// C library's lock functions return errors and leave errno alone.
template <typename Lock>
SPIKETRAP_ALWAYS_INLINE int timedLock(Lock *L, WaitCall Call, unsigned Try) {
  ThreadState &T = threadState;
  if (T.Status == StatusActive && T.Depth && WaitsOn) {
    auto TryFn = real<int (*)(Lock *)>(Try);
    if (SPIKETRAP_LIKELY(TryFn && real<int (*)(Lock *)>(Call))) {
      int R = TryFn(L);
      return R != EBUSY ? R : lockSlow(L, Call, T);
    }
  }
  auto Real = real<int (*)(Lock *)>(Call);
  return Real ? Real(L) : ENOSYS;
}

} // namespace

const char *waitCallName(uint32_t Call) {
  if (Call == Wait_syscall)
    return "futex";
  return Call && Call < kNumWaitCalls ? RealNames[Call] : "?";
}

bool waitsInterposed() { return SPIKETRAP_INTERPOSE_WAITS; }

void waitsInit() {
  WaitsOn = flags.waits;
  if (SPIKETRAP_INTERPOSE_WAITS)
    resolveAll();
}

void sumWaits(const ThreadState &T, SpikeLevel *Level, uint32_t N,
              uint64_t End, WaitSummary &Out) {
  Out = {0, nullptr, WaitNone, false};
  for (uint32_t L = 0; L < N; ++L)
    Level[L].WaitTicks = 0;
  if (!N)
    return;
  const WaitRing &W = T.Waits;
  uint64_t Written = __atomic_load_n(&W.Next, __ATOMIC_RELAXED);
  uint64_t Top = Level[N - 1].Start;
  Out.LowerBound = __atomic_load_n(&W.Evicted, __ATOMIC_RELAXED) > Top;
  uint32_t Slots = Written < kWaitSlots ? uint32_t(Written) : kWaitSlots;
  for (uint32_t I = 0; I < Slots; ++I) {
    const WaitEntry &E = W.Entries[I];
    uint64_t EEnd = __atomic_load_n(&E.End, __ATOMIC_RELAXED);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    uint64_t EStart = E.Start;
    const spiketrap_desc *Desc = E.Desc;
    uint32_t Call = W.Calls[I];
    std::atomic_signal_fence(std::memory_order_seq_cst);
    // Being written (by a handler that interrupted us), or rewritten since.
    if (!EEnd || EEnd != __atomic_load_n(&E.End, __ATOMIC_RELAXED))
      continue;
    if (EEnd > End)
      EEnd = End;
    if (EEnd <= Level[0].Start)
      continue; // before the outermost level: nothing here
    // Levels start later the deeper they are: each gets the part of the
    // wait after its start.
    for (uint32_t L = 0; L < N && EEnd > Level[L].Start; ++L)
      Level[L].WaitTicks +=
          EEnd - (EStart > Level[L].Start ? EStart : Level[L].Start);
    if (EEnd > Top) {
      uint64_t Ticks = EEnd - (EStart > Top ? EStart : Top);
      if (Ticks > Out.LongestTicks)
        Out = {Ticks, Desc, Call, Out.LowerBound};
    }
  }
}

} // namespace __spiketrap

#if SPIKETRAP_INTERPOSE_WAITS
using namespace __spiketrap;

// Locals end in '_': the parameters' names come from the list.
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, Missing)                       \
  SPIKETRAP_EXPORT Ret Name Params {                                           \
    auto Real_ = real<Ret(*) Params>(Wait_##Name);                             \
    if (!Real_)                                                                \
      return Missing;                                                          \
    ThreadState &T_ = threadState;                                             \
    const spiketrap_desc *D_ = waiter(T_);                                     \
    if (!D_)                                                                   \
      return Real_ Args;                                                       \
    uint64_t Start_ = now();                                                   \
    Ret R_ = Real_ Args;                                                       \
    noteWait(T_, Wait_##Name, D_, Start_);                                     \
    return R_;                                                                 \
  }
#define SPIKETRAP_WAIT_OWN(Name)
#include "spiketrap_waits.inc"

SPIKETRAP_EXPORT int pthread_mutex_lock(pthread_mutex_t *M) {
  return timedLock(M, Wait_pthread_mutex_lock, TryMutex);
}

SPIKETRAP_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *L) {
  return timedLock(L, Wait_pthread_rwlock_rdlock, TryRdlock);
}

SPIKETRAP_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *L) {
  return timedLock(L, Wait_pthread_rwlock_wrlock, TryWrlock);
}

// syscall() is variadic: forward six arguments, as the C library's reads
// them. Only futex waits are timed (std::atomic::wait, hand-made locks).
SPIKETRAP_EXPORT long syscall(long Nr, ...) {
  va_list Ap;
  va_start(Ap, Nr);
  long A[6];
  for (long &V : A)
    V = va_arg(Ap, long);
  va_end(Ap);
  auto Real = real<long (*)(long, ...)>(Wait_syscall);
  if (!Real) {
    errno = ENOSYS;
    return -1;
  }
  ThreadState &T = threadState;
  const spiketrap_desc *D = nullptr;
  if (Nr != SYS_futex || !futexWaits(A[1]) || !(D = waiter(T)))
    return Real(Nr, A[0], A[1], A[2], A[3], A[4], A[5]);
  uint64_t Start = now();
  long R = Real(Nr, A[0], A[1], A[2], A[3], A[4], A[5]);
  noteWait(T, Wait_syscall, D, Start);
  return R;
}
#endif
