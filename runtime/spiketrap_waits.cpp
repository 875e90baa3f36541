//===- spiketrap_waits.cpp - Time spent waiting in the C library ----------===//
//
// The waiting calls of the C library (spiketrap_waits.inc): the real
// functions (found with dlsym(RTLD_NEXT), so errno, return values and
// cancellation are the C library's own, or a static program's fallbacks),
// the bookkeeping every wrapper shares (waitBegin/waitEnd: on a thread whose
// hooks record and that has an open frame, note when the wait began and
// ended in the thread's WaitRing), and the interposed calls that are no
// cancellation points (locks, syscall). Nothing here runs in the hooks; a
// thread with nothing open, or the runtime's own work (Busy), pays two
// direct calls, a TLS load and an indirect call. A lock is timed only when a
// try-lock first fails: an uncontended lock costs a try-lock, as before.
// The generated wrappers, with unwind tables: spiketrap_waits_calls.cpp.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_waits.h"
#include "spiketrap_flags.h"
#include "spiketrap_clock.h"
#include "spiketrap_sampler.h"
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

// A statically linked program has no dynamic symbols to look up, and our
// definitions took the C library's place: the calls go to glibc's internal
// names of the same functions (strong in libc.a; absent from libc.so, or
// public there, so a dynamic link never binds to a private one), or to a
// shim below. Another C library, or another glibc that renamed them: none
// found, and the call fails with ENOSYS.
#define SPIKETRAP_STATIC_REALS(X)                                              \
  X(pthread_mutex_lock, "___pthread_mutex_lock")                               \
  X(pthread_rwlock_rdlock, "___pthread_rwlock_rdlock")                         \
  X(pthread_rwlock_wrlock, "___pthread_rwlock_wrlock")                         \
  X(pthread_cond_wait, "___pthread_cond_wait")                                 \
  X(pthread_cond_timedwait, "___pthread_cond_timedwait")                       \
  X(sem_wait, "__new_sem_wait")                                                \
  X(sem_timedwait, "___sem_timedwait")                                         \
  X(pthread_join, "___pthread_join")                                           \
  X(nanosleep, "__nanosleep")                                                  \
  X(clock_nanosleep, "__clock_nanosleep")                                      \
  X(sleep, "__sleep")                                                          \
  X(read, "__libc_read")                                                       \
  X(write, "__libc_write")                                                     \
  X(pread, "__libc_pread64")                                                   \
  X(pwrite, "__libc_pwrite64")                                                 \
  X(pread64, "__libc_pread64")                                                 \
  X(pwrite64, "__libc_pwrite64")                                               \
  X(readv, "__readv")                                                          \
  X(writev, "__writev")                                                        \
  X(poll, "__poll")                                                            \
  X(ppoll, "__ppoll")                                                          \
  X(select, "__select")                                                        \
  X(recv, "__libc_recv")                                                       \
  X(recvfrom, "__libc_recvfrom")                                               \
  X(send, "__libc_send")                                                       \
  X(sendto, "__libc_sendto")                                                   \
  X(accept, "__libc_accept")                                                   \
  X(connect, "__libc_connect")                                                 \
  X(waitpid, "__waitpid")                                                      \
  X(sigwait, "__sigwait")                                                      \
  X(sigwaitinfo, "__sigwaitinfo")                                              \
  X(sigtimedwait, "__sigtimedwait")                                            \
  X(sigsuspend, "__sigsuspend")
#define SPIKETRAP_DECLARE_STATIC(Name, Sym)                                    \
  extern "C" char StaticReal_##Name[] __asm__(Sym) __attribute__((weak));
SPIKETRAP_STATIC_REALS(SPIKETRAP_DECLARE_STATIC)
#undef SPIKETRAP_DECLARE_STATIC
extern "C" char StaticTryMutex[] __asm__("___pthread_mutex_trylock")
    __attribute__((weak));
extern "C" char StaticTryRdlock[] __asm__("___pthread_rwlock_tryrdlock")
    __attribute__((weak));
extern "C" char StaticTryWrlock[] __asm__("___pthread_rwlock_trywrlock")
    __attribute__((weak));

// The lookup and the static fallbacks run once, or only in a static
// program: built for size (as -Oz) in a file whose per-call part is -O2.
SPIKETRAP_MINSIZE_BEGIN

// A system call's result as the C library returns it.
long sysResult(long R) {
  if (R < 0 && R > -4096) {
    errno = int(-R);
    return -1;
  }
  return R;
}

// Shims for a static program where glibc has no internal name. They call
// the functions the C library's names resolved to, not our wrappers (which
// would note the same wait twice).
template <typename Fn> Fn resolved(unsigned I) {
  return reinterpret_cast<Fn>(__atomic_load_n(&Real[I], __ATOMIC_ACQUIRE));
}
#define SPIKETRAP_CALL_RESOLVED(Call, Type, Args)                              \
  if (auto F = resolved<Type>(Call))                                           \
    return F Args;                                                             \
  errno = ENOSYS;                                                              \
  return -1
using ReadFn = ssize_t (*)(int, void *, size_t);
using PreadFn = ssize_t (*)(int, void *, size_t, off64_t);
using RecvFromFn = ssize_t (*)(int, void *, size_t, int, sockaddr *,
                               socklen_t *);
using PpollFn = int (*)(pollfd *, nfds_t, const timespec *, const sigset_t *);
extern "C" [[noreturn]] void __chk_fail(void);
int staticUsleep(useconds_t Us) {
  timespec T = {time_t(Us / 1000000), long(Us % 1000000) * 1000};
  SPIKETRAP_CALL_RESOLVED(Wait_nanosleep, int (*)(const timespec *, timespec *),
                          (&T, nullptr));
}
ssize_t staticReadChk(int Fd, void *Buf, size_t N, size_t BufLen) {
  if (N > BufLen)
    __chk_fail();
  SPIKETRAP_CALL_RESOLVED(Wait_read, ReadFn, (Fd, Buf, N));
}
ssize_t staticPreadChk(int Fd, void *Buf, size_t N, off64_t Off,
                       size_t BufLen) {
  if (N > BufLen)
    __chk_fail();
  SPIKETRAP_CALL_RESOLVED(Wait_pread64, PreadFn, (Fd, Buf, N, Off));
}
ssize_t staticRecvChk(int Fd, void *Buf, size_t N, size_t BufLen, int Flags) {
  if (N > BufLen)
    __chk_fail();
  SPIKETRAP_CALL_RESOLVED(Wait_recvfrom, RecvFromFn,
                          (Fd, Buf, N, Flags, nullptr, nullptr));
}
ssize_t staticRecvfromChk(int Fd, void *Buf, size_t N, size_t BufLen,
                          int Flags, sockaddr *From, socklen_t *Len) {
  if (N > BufLen)
    __chk_fail();
  SPIKETRAP_CALL_RESOLVED(Wait_recvfrom, RecvFromFn,
                          (Fd, Buf, N, Flags, From, Len));
}
int staticPollChk(pollfd *Fds, nfds_t N, int Timeout, size_t FdsLen) {
  if (FdsLen / sizeof(*Fds) < N)
    __chk_fail();
  SPIKETRAP_CALL_RESOLVED(Wait_poll, int (*)(pollfd *, nfds_t, int),
                          (Fds, N, Timeout));
}
int staticPpollChk(pollfd *Fds, nfds_t N, const timespec *Ts,
                   const sigset_t *Mask, size_t FdsLen) {
  if (FdsLen / sizeof(*Fds) < N)
    __chk_fail();
  SPIKETRAP_CALL_RESOLVED(Wait_ppoll, PpollFn, (Fds, N, Ts, Mask));
}

// When glibc's internal name was not linked in (a weak reference does not
// pull a member out of libc.a): the system call itself, or, for the locks,
// semaphores and joins that have no system call, their non-blocking form
// until it succeeds (mutual exclusion kept, fairness not); condition waits
// release the mutex for 100 us (a spurious wake-up).
long sys(long Nr, long A = 0, long B = 0, long C = 0, long D = 0, long E = 0,
         long F = 0) {
  return sysResult(arch::rawSyscall(Nr, A, B, C, D, E, F));
}
void backOff() { sys(SYS_sched_yield); }
int rawNanosleep(const timespec *Req, timespec *Rem) {
  return int(sys(SYS_nanosleep, long(Req), long(Rem)));
}
int rawClockNanosleep(clockid_t Clock, int Flags, const timespec *Req,
                      timespec *Rem) {
  long R = arch::rawSyscall(SYS_clock_nanosleep, Clock, Flags, long(Req),
                            long(Rem), 0, 0);
  return R < 0 ? int(-R) : 0; // an error number, errno untouched
}
unsigned rawSleep(unsigned Secs) {
  timespec T = {time_t(Secs), 0}, Rem = {0, 0};
  return rawNanosleep(&T, &Rem) ? unsigned(Rem.tv_sec + (Rem.tv_nsec > 0)) : 0;
}
ssize_t rawRead(int Fd, void *B, size_t N) { return sys(SYS_read, Fd, long(B), long(N)); }
ssize_t rawWrite(int Fd, const void *B, size_t N) { return sys(SYS_write, Fd, long(B), long(N)); }
ssize_t rawPread(int Fd, void *B, size_t N, off64_t O) { return sys(SYS_pread64, Fd, long(B), long(N), long(O)); }
ssize_t rawPwrite(int Fd, const void *B, size_t N, off64_t O) { return sys(SYS_pwrite64, Fd, long(B), long(N), long(O)); }
ssize_t rawReadv(int Fd, const iovec *V, int N) { return sys(SYS_readv, Fd, long(V), N); }
ssize_t rawWritev(int Fd, const iovec *V, int N) { return sys(SYS_writev, Fd, long(V), N); }
int rawPpoll(pollfd *Fds, nfds_t N, const timespec *Ts, const sigset_t *M) {
  return int(sys(SYS_ppoll, long(Fds), long(N), long(Ts), long(M), _NSIG / 8));
}
int rawPoll(pollfd *Fds, nfds_t N, int Timeout) {
  timespec T = {Timeout / 1000, long(Timeout % 1000) * 1000000};
  return rawPpoll(Fds, N, Timeout < 0 ? nullptr : &T, nullptr);
}
int rawSelect(int N, fd_set *R, fd_set *W, fd_set *E, timeval *Tv) {
  timespec T = {Tv ? Tv->tv_sec : 0, Tv ? long(Tv->tv_usec) * 1000 : 0};
  int Ret = int(sys(SYS_pselect6, N, long(R), long(W), long(E),
                    long(Tv ? &T : nullptr), 0));
  if (Tv) { // Linux's select leaves the time not slept in its timeout
    Tv->tv_sec = T.tv_sec;
    Tv->tv_usec = T.tv_nsec / 1000;
  }
  return Ret;
}
int rawEpollWait(int Ep, epoll_event *Ev, int Max, int Timeout) {
  return int(sys(SYS_epoll_pwait, Ep, long(Ev), Max, Timeout, 0, _NSIG / 8));
}
int rawFsync(int Fd) { return int(sys(SYS_fsync, Fd)); }
int rawFdatasync(int Fd) { return int(sys(SYS_fdatasync, Fd)); }
ssize_t rawRecvfrom(int Fd, void *B, size_t N, int Fl, sockaddr *From, socklen_t *L) {
  return sys(SYS_recvfrom, Fd, long(B), long(N), Fl, long(From), long(L));
}
ssize_t rawRecv(int Fd, void *B, size_t N, int Fl) { return rawRecvfrom(Fd, B, N, Fl, nullptr, nullptr); }
ssize_t rawSendto(int Fd, const void *B, size_t N, int Fl, const sockaddr *To, socklen_t L) {
  return sys(SYS_sendto, Fd, long(B), long(N), Fl, long(To), long(L));
}
ssize_t rawSend(int Fd, const void *B, size_t N, int Fl) { return rawSendto(Fd, B, N, Fl, nullptr, 0); }
int rawAccept(int Fd, sockaddr *A, socklen_t *L) { return int(sys(SYS_accept4, Fd, long(A), long(L), 0)); }
int rawConnect(int Fd, const sockaddr *A, socklen_t L) { return int(sys(SYS_connect, Fd, long(A), long(L))); }
pid_t rawWaitpid(pid_t P, int *St, int Opt) { return pid_t(sys(SYS_wait4, P, long(St), Opt, 0)); }
int rawSigtimedwait(const sigset_t *S, siginfo_t *I, const timespec *T) {
  return int(sys(SYS_rt_sigtimedwait, long(S), long(I), long(T), _NSIG / 8));
}
int rawSigwaitinfo(const sigset_t *S, siginfo_t *I) {
  return rawSigtimedwait(S, I, nullptr);
}
int rawSigwait(const sigset_t *S, int *Sig) { // an error number, as sigwait
  long R;
  while ((R = arch::rawSyscall(SYS_rt_sigtimedwait, long(S), 0, 0, _NSIG / 8,
                               0, 0)) == -EINTR) {
  }
  if (R < 0)
    return int(-R);
  *Sig = int(R);
  return 0;
}
int rawSigsuspend(const sigset_t *M) {
  return int(sys(SYS_rt_sigsuspend, long(M), _NSIG / 8));
}
template <typename Lock, int (*Try)(Lock *)> int tryLoop(Lock *L) {
  int R;
  while ((R = Try(L)) == EBUSY)
    backOff();
  return R;
}
// Whether CLOCK_REALTIME has reached the absolute time Abs.
bool pastDeadline(const timespec *Abs) {
  timespec Now;
  clock_gettime(CLOCK_REALTIME, &Now);
  return Now.tv_sec > Abs->tv_sec ||
         (Now.tv_sec == Abs->tv_sec && Now.tv_nsec >= Abs->tv_nsec);
}
int semWaitLoop(sem_t *S) {
  while (sem_trywait(S))
    if (errno != EAGAIN)
      return -1;
    else
      backOff();
  return 0;
}
int semTimedwaitLoop(sem_t *S, const timespec *Abs) {
  while (sem_trywait(S)) {
    if (errno != EAGAIN)
      return -1;
    if (pastDeadline(Abs)) {
      errno = ETIMEDOUT;
      return -1;
    }
    backOff();
  }
  return 0;
}
int joinLoop(pthread_t Th, void **Ret) {
  int R;
  while ((R = pthread_tryjoin_np(Th, Ret)) == EBUSY) {
    timespec T = {0, 100000};
    rawNanosleep(&T, nullptr);
  }
  return R;
}
// A wake-up without a signal is one pthread_cond_wait may give: callers wait
// in a loop on their condition.
int condNap(pthread_mutex_t *M) {
  pthread_mutex_unlock(M);
  timespec T = {0, 100000};
  rawNanosleep(&T, nullptr);
  auto Lock = resolved<int (*)(pthread_mutex_t *)>(Wait_pthread_mutex_lock);
  return Lock ? Lock(M) : ENOSYS;
}
int condWaitByNaps(pthread_cond_t *, pthread_mutex_t *M) { return condNap(M); }
int condTimedwaitByNaps(pthread_cond_t *, pthread_mutex_t *M,
                        const timespec *Abs) {
  if (pastDeadline(Abs))
    return ETIMEDOUT;
  return condNap(M);
}

template <typename Fn> void *fn(Fn F) { return reinterpret_cast<void *>(F); }

void *rawReal(unsigned I) {
  switch (I) {
  case Wait_pthread_mutex_lock:
    return fn(tryLoop<pthread_mutex_t, pthread_mutex_trylock>);
  case Wait_pthread_rwlock_rdlock:
    return fn(tryLoop<pthread_rwlock_t, pthread_rwlock_tryrdlock>);
  case Wait_pthread_rwlock_wrlock:
    return fn(tryLoop<pthread_rwlock_t, pthread_rwlock_trywrlock>);
  case TryMutex:
    return fn(pthread_mutex_trylock);
  case TryRdlock:
    return fn(pthread_rwlock_tryrdlock);
  case TryWrlock:
    return fn(pthread_rwlock_trywrlock);
  case Wait_pthread_cond_wait:
    return fn(condWaitByNaps);
  case Wait_pthread_cond_timedwait:
    return fn(condTimedwaitByNaps);
  case Wait_sem_wait:
    return fn(semWaitLoop);
  case Wait_sem_timedwait:
    return fn(semTimedwaitLoop);
  case Wait_pthread_join:
    return fn(joinLoop);
  case Wait_nanosleep:
    return fn(rawNanosleep);
  case Wait_clock_nanosleep:
    return fn(rawClockNanosleep);
  case Wait_usleep:
    return fn(staticUsleep);
  case Wait_sleep:
    return fn(rawSleep);
  case Wait_read:
    return fn(rawRead);
  case Wait_write:
    return fn(rawWrite);
  case Wait_pread:
  case Wait_pread64:
    return fn(rawPread);
  case Wait_pwrite:
  case Wait_pwrite64:
    return fn(rawPwrite);
  case Wait_readv:
    return fn(rawReadv);
  case Wait_writev:
    return fn(rawWritev);
  case Wait_poll:
    return fn(rawPoll);
  case Wait_ppoll:
    return fn(rawPpoll);
  case Wait_select:
    return fn(rawSelect);
  case Wait_epoll_wait:
    return fn(rawEpollWait);
  case Wait_fsync:
    return fn(rawFsync);
  case Wait_fdatasync:
    return fn(rawFdatasync);
  case Wait_recv:
    return fn(rawRecv);
  case Wait_recvfrom:
    return fn(rawRecvfrom);
  case Wait_send:
    return fn(rawSend);
  case Wait_sendto:
    return fn(rawSendto);
  case Wait_accept:
    return fn(rawAccept);
  case Wait_connect:
    return fn(rawConnect);
  case Wait_waitpid:
    return fn(rawWaitpid);
  case Wait_sigwait:
    return fn(rawSigwait);
  case Wait_sigwaitinfo:
    return fn(rawSigwaitinfo);
  case Wait_sigtimedwait:
    return fn(rawSigtimedwait);
  case Wait_sigsuspend:
    return fn(rawSigsuspend);
  case Wait___read_chk:
    return fn(staticReadChk);
  case Wait___pread_chk:
  case Wait___pread64_chk:
    return fn(staticPreadChk);
  case Wait___recv_chk:
    return fn(staticRecvChk);
  case Wait___recvfrom_chk:
    return fn(staticRecvfromChk);
  case Wait___poll_chk:
    return fn(staticPollChk);
  case Wait___ppoll_chk:
    return fn(staticPpollChk);
  }
  return nullptr; // syscall: a system call of its own
}

void *staticReal(unsigned I) {
  void *Internal = nullptr;
  switch (I) {
#define SPIKETRAP_CASE(Name, Sym)                                              \
  case Wait_##Name:                                                            \
    Internal = StaticReal_##Name;                                              \
    break;
    SPIKETRAP_STATIC_REALS(SPIKETRAP_CASE)
#undef SPIKETRAP_CASE
  case TryMutex:
    Internal = StaticTryMutex;
    break;
  case TryRdlock:
    Internal = StaticTryRdlock;
    break;
  case TryWrlock:
    Internal = StaticTryWrlock;
    break;
  }
  return Internal ? Internal : rawReal(I);
}
// dlsym may allocate, and an allocator may lock: a wait reached from inside
// the lookup on the same thread must not look up again.
__thread bool Resolving;

void resolveAll() {
  if (Resolving)
    return;
  Resolving = true;
  int Saved = errno;
  for (unsigned I = 1; I < kNumReal; ++I)
    if (!__atomic_load_n(&Real[I], __ATOMIC_ACQUIRE)) {
      void *F = dlsym(RTLD_NEXT, RealNames[I]);
      __atomic_store_n(&Real[I], F ? F : staticReal(I), __ATOMIC_RELEASE);
    }
  errno = Saved;
  Resolving = false;
}

// The real function I. While this thread is inside resolveAll (a wait
// reached from dlsym), the static fallback: never null but for syscall() in a
// static program.
SPIKETRAP_NOINLINE void *resolveOne(unsigned I) {
  resolveAll();
  void *F = __atomic_load_n(&Real[I], __ATOMIC_ACQUIRE);
  return F ? F : staticReal(I);
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

// The innermost open frame, when this thread's waits are noted: its hooks
// record (not new, busy, paused or gone) and a call is open.
SPIKETRAP_ALWAYS_INLINE const spiketrap_desc *waiter(const ThreadState &T) {
  uint32_t Depth = T.Depth;
  if (T.Status != StatusActive || !Depth || !WaitsOn)
    return nullptr;
  return T.Frames[(Depth < kMaxDepth ? Depth : kMaxDepth) - 1].Desc;
}

} // namespace

SPIKETRAP_NOINLINE void waitBegin(WaitScope &W, uint32_t Call) {
  ThreadState &T = threadState;
  W.Call = Call;
  W.Real = realFn(Call);
  // The watcher never signals a thread in a wait (an interrupted sleep or
  // poll would return EINTR), and a thread sampling itself stops first.
  W.Marked = T.Status == StatusActive && T.Depth;
  // A thread that takes signals synchronously is never signalled to sample.
  if (Call >= Wait_sigwait && Call <= Wait_sigsuspend)
    T.WaitsForSignals = 1;
  W.Paused = false;
  if (W.Marked) {
    // Against the watcher's look: it counts its signal, then reads InWait.
    __atomic_fetch_add(&T.InWait, 1, __ATOMIC_SEQ_CST);
    if (T.Samples)
      W.Paused = samplerPauseForWait(T);
  }
  W.Desc = waiter(T);
  if (W.Desc)
    W.Start = now();
}

// The slot is reserved with an atomic add: a signal handler that waits in
// between takes the next one. End is written last (and cleared first), so a
// reader on this thread (a spike in a handler) skips a slot being written.
SPIKETRAP_NOINLINE void waitEnd(const WaitScope &W) {
  if (W.Marked) {
    if (W.Paused)
      samplerResumeAfterWait();
    std::atomic_signal_fence(std::memory_order_seq_cst);
    --threadState.InWait;
  }
  if (!W.Desc)
    return;
  int Saved = errno;
  uint64_t End = now();
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
  std::atomic_signal_fence(std::memory_order_seq_cst);
  __atomic_store_n(&E.End, End > W.Start ? End : W.Start + 1, __ATOMIC_RELAXED);
  errno = Saved;
}

namespace {

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
SPIKETRAP_NOINLINE int lockSlow(Lock *L, uint32_t Call) {
  WaitScope W;
  waitBegin(W, Call);
  int R = reinterpret_cast<int (*)(Lock *)>(W.Real)(L);
  waitEnd(W);
  return R;
}

// A lock: try first, and time the real call only when the try fails (an
// uncontended lock costs one more indirect call). Any other answer of the
// try-lock is the lock's own: taken (0, EOWNERDEAD) or an error it would
// return too (EINVAL, EAGAIN for a recursion count at its limit). The
// C library's lock functions return errors and leave errno alone.
template <typename Lock>
SPIKETRAP_ALWAYS_INLINE int timedLock(Lock *L, uint32_t Call, unsigned Try) {
  ThreadState &T = threadState;
  if (T.Status == StatusActive && T.Depth && WaitsOn) {
    int R = real<int (*)(Lock *)>(Try)(L);
    return R != EBUSY ? R : lockSlow(L, Call);
  }
  return real<int (*)(Lock *)>(Call)(L);
}

} // namespace

// What runs at start-up, for a report or for a spike: for size too.
SPIKETRAP_MINSIZE_BEGIN
const char *waitCallName(uint32_t Call) {
  if (Call == Wait_syscall)
    return "futex";
  return Call && Call < kNumWaitCalls ? RealNames[Call] : "?";
}

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

SPIKETRAP_MINSIZE_END

} // namespace __spiketrap

#if SPIKETRAP_INTERPOSE_WAITS
using namespace __spiketrap;

// The calls that are no cancellation points: no unwind tables needed.
SPIKETRAP_EXPORT int pthread_mutex_lock(pthread_mutex_t *M) {
  return timedLock(M, Wait_pthread_mutex_lock, TryMutex);
}

SPIKETRAP_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t *L) {
  return timedLock(L, Wait_pthread_rwlock_rdlock, TryRdlock);
}

SPIKETRAP_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t *L) {
  return timedLock(L, Wait_pthread_rwlock_wrlock, TryWrlock);
}

// Futex waits through syscall() are rare next to locks: for size.
SPIKETRAP_MINSIZE_BEGIN
// syscall() is variadic: forward six arguments, as the C library's reads
// them. Only futex waits are timed (std::atomic::wait, hand-made locks).
SPIKETRAP_EXPORT long syscall(long Nr, ...) {
  va_list Ap;
  va_start(Ap, Nr);
  long A[6];
  for (long &V : A)
    V = va_arg(Ap, long);
  va_end(Ap);
  auto Real = reinterpret_cast<long (*)(long, ...)>(realFn(Wait_syscall));
  if (!Real) // statically linked
    return sysResult(arch::rawSyscall(Nr, A[0], A[1], A[2], A[3], A[4], A[5]));
  WaitScope W;
  if (Nr == SYS_futex && futexWaits(A[1]))
    waitBegin(W, Wait_syscall);
  else
    W.Desc = nullptr, W.Marked = W.Paused = false;
  long R = Real(Nr, A[0], A[1], A[2], A[3], A[4], A[5]);
  waitEnd(W);
  return R;
}
SPIKETRAP_MINSIZE_END
#endif
