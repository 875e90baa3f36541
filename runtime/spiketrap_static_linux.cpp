//===- spiketrap_static_linux.cpp - The C library in a static program ----===//
//
// What the runtime's interposed calls call in a statically linked program,
// where dlsym(RTLD_NEXT) finds nothing and our definitions took the C
// library's place: glibc's own function, reached under another name, so
// that errno, return values, cancellation and blocking are glibc's.
// - The waiting calls (spiketrap_waits.inc): glibc's name for the function
//   in libc.a, referenced weakly (libc.so does not export most of them, and
//   a weak reference does not pull a member out of libc.a), or strongly
//   where libc.so exports it too (the table's `exported`: __read, __poll,
//   ...). Where the weak name was not linked in, the fallback: the same
//   function through another public entry point of glibc (a timed lock or
//   wait with no deadline, pthread_timedjoin_np, __nanosleep) or the system
//   call made a cancellation point as glibc makes one. Those entry points
//   are referenced for good: they bring their members of libc.a along, and
//   with them some of the weak names (cnd_wait brings pthread_cond_wait.o,
//   __nanosleep brings __clock_nanosleep); so do a few references kept for
//   that alone (Members, below).
// - signal(): glibc's is also exported as bsd_signal.
// - pthread_setname_np: glibc's own steps, with the kernel's thread id
//   taken from pthread_getcpuclockid.
// A wait reached from inside dlsym itself (an allocator's lock during the
// lookup) gets the same. Another C library is not supported. Built for
// size, with unwind tables: a thread cancelled inside glibc's call unwinds
// through these frames (those never on the stack then have none).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_static.h"
#include "spiketrap_arch.h"
#include "spiketrap_format.h"
#include "spiketrap_waits.h"

#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <spawn.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

// The table's Glibc column: a name or none; its Fallback: exported or a
// function. SPIKETRAP_HAS_GLIBC(G) and SPIKETRAP_IS_EXPORTED(F) are 0 or 1.
#define SPIKETRAP_SECOND(A, B, ...) B
#define SPIKETRAP_SECOND_(...) SPIKETRAP_SECOND(__VA_ARGS__)
#define SPIKETRAP_GLIBC_none ~, 0
#define SPIKETRAP_HAS_GLIBC(G) SPIKETRAP_SECOND_(SPIKETRAP_GLIBC_##G, 1, ~)
#define SPIKETRAP_EXPORTED_exported ~, 1
#define SPIKETRAP_IS_EXPORTED(F) SPIKETRAP_SECOND_(SPIKETRAP_EXPORTED_##F, 0, ~)

// glibc::Name: glibc's own name of Name, weak unless libc.so exports it.
#define SPIKETRAP_GLIBC_DECL_00(Name, Ret, Params, G)
#define SPIKETRAP_GLIBC_DECL_10(Name, Ret, Params, G)                          \
  Ret Name Params __asm__(#G) __attribute__((weak));
#define SPIKETRAP_GLIBC_DECL_11(Name, Ret, Params, G)                          \
  Ret Name Params __asm__(#G);
namespace glibc {
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, G, F)                          \
  SPIKETRAP_CAT_(                                                              \
      SPIKETRAP_CAT_(SPIKETRAP_GLIBC_DECL_, SPIKETRAP_HAS_GLIBC(G)),           \
      SPIKETRAP_IS_EXPORTED(F))                                                \
  (Name, Ret, Params, G)
#define SPIKETRAP_WAIT_OWN SPIKETRAP_WAIT
#include "spiketrap_waits.inc"
} // namespace glibc

namespace {

// A system call's result as the C library returns it.
SPIKETRAP_NO_UNWIND_TABLE long sysResult(long R) {
  if (R < 0 && R > -4096) {
    errno = int(-R);
    return -1;
  }
  return R;
}

// syscall(): not a cancellation point in glibc either.
SPIKETRAP_NO_UNWIND_TABLE long sys(long Nr, long A, long B, long C, long D,
                                   long E, long F) {
  return sysResult(arch::rawSyscall(Nr, A, B, C, D, E, F));
}

// The system call Nr, a cancellation point as glibc's wrappers make one:
// asynchronous cancellation for the time of the call (a cancellation
// already pending acts at once; one that comes during the call unwinds from
// it). Returns what the kernel returns.
long cancellableRaw(long Nr, long A, long B, long C, long D, long E, long F) {
  int Old;
  pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, &Old);
  long R = arch::rawSyscall(Nr, A, B, C, D, E, F);
  pthread_setcanceltype(Old, nullptr);
  return R;
}
long cancellableSyscall(long Nr, long A, long B, long C, long D, long E,
                        long F) {
  return sysResult(cancellableRaw(Nr, A, B, C, D, E, F));
}
// The table's cancellable<SYS_x>: a function of the call's own type that
// passes its arguments, as words, to the system call (missing ones 0).
template <long Nr, typename R, typename... P> R cancellable(P... Args) {
  long W[6] = {word(Args)...};
  return R(cancellableSyscall(Nr, W[0], W[1], W[2], W[3], W[4], W[5]));
}

// A deadline no wait reaches: a timed wait until it is an untimed one.
constexpr timespec Forever = {time_t(~0ull >> 1), 0};
// Locks are no cancellation points.
SPIKETRAP_NO_UNWIND_TABLE int mutexLockForever(pthread_mutex_t *M) {
  int R;
  while ((R = pthread_mutex_timedlock(M, &Forever)) == ETIMEDOUT) {
  }
  return R;
}
SPIKETRAP_NO_UNWIND_TABLE int rdlockForever(pthread_rwlock_t *L) {
  int R;
  while ((R = pthread_rwlock_timedrdlock(L, &Forever)) == ETIMEDOUT) {
  }
  return R;
}
SPIKETRAP_NO_UNWIND_TABLE int wrlockForever(pthread_rwlock_t *L) {
  int R;
  while ((R = pthread_rwlock_timedwrlock(L, &Forever)) == ETIMEDOUT) {
  }
  return R;
}
// A deadline on Clock as one on CLOCK_REALTIME, for glibc's timed locks:
// the time left on Clock from now. A bad time is passed on as it is (the
// timed lock refuses it as the clock lock does); another clock: EINVAL.
int realtimeDeadline(clockid_t Clock, const timespec *Ts, timespec &Out) {
  if (Clock != CLOCK_REALTIME && Clock != CLOCK_MONOTONIC)
    return EINVAL;
  Out = *Ts;
  if (Clock == CLOCK_REALTIME || Ts->tv_nsec < 0 || Ts->tv_nsec >= 1000000000)
    return 0;
  timespec Mono, Real;
  clock_gettime(CLOCK_MONOTONIC, &Mono);
  clock_gettime(CLOCK_REALTIME, &Real);
  long Nsec = Ts->tv_nsec - Mono.tv_nsec + Real.tv_nsec; // -1e9 < Nsec < 2e9
  time_t Carry = Nsec < 0 ? -1 : Nsec >= 1000000000 ? 1 : 0;
  Out.tv_nsec = Nsec - Carry * 1000000000;
  if (__builtin_sub_overflow(Ts->tv_sec, Mono.tv_sec, &Out.tv_sec) ||
      __builtin_add_overflow(Out.tv_sec, Real.tv_sec + Carry, &Out.tv_sec))
    Out = Forever; // past the end of time
  return 0;
}
// A static program always has glibc's own clock lock for mutexes (the
// timedlock above brings their member of libc.a), but not those of
// read-write locks (nothing else in libc.a brings theirs): this waits on
// CLOCK_REALTIME for the same time, so only a step of that clock during
// the wait moves the timeout.
template <typename Lock, int (*Timed)(Lock *, const timespec *)>
SPIKETRAP_NO_UNWIND_TABLE int clockByTimed(Lock *L, clockid_t Clock,
                                           const timespec *Ts) {
  timespec Real;
  if (int E = realtimeDeadline(Clock, Ts, Real))
    return E;
  return Timed(L, &Real);
}
constexpr auto mutexClocklock =
    clockByTimed<pthread_mutex_t, pthread_mutex_timedlock>;
constexpr auto rdlockClock =
    clockByTimed<pthread_rwlock_t, pthread_rwlock_timedrdlock>;
constexpr auto wrlockClock =
    clockByTimed<pthread_rwlock_t, pthread_rwlock_timedwrlock>;
// The condition waits: glibc's own names in a static program, whose member
// of libc.a the C11 waits bring (cnd_wait and cnd_timedwait call them).
// What follows is reached only from inside dlsym in a dynamic program: the
// C11 waits, glibc's condition waits under another name, which answer
// thrd_* codes (all errors but these as thrd_error).
int fromThrd(int R) {
  switch (R) {
  case thrd_success:
    return 0;
  case thrd_timedout:
    return ETIMEDOUT;
  case thrd_nomem:
    return ENOMEM;
  case thrd_busy:
    return EBUSY;
  default:
    return EINVAL;
  }
}
int condWaitForever(pthread_cond_t *C, pthread_mutex_t *M) {
  return fromThrd(
      cnd_wait(reinterpret_cast<cnd_t *>(C), reinterpret_cast<mtx_t *>(M)));
}
int condTimedwait(pthread_cond_t *C, pthread_mutex_t *M, const timespec *Ts) {
  return fromThrd(cnd_timedwait(reinterpret_cast<cnd_t *>(C),
                                reinterpret_cast<mtx_t *>(M), Ts));
}
// No C11 wait takes a clock: a wake-up that comes early, as condition waits
// may (callers wait in a loop).
SPIKETRAP_NO_UNWIND_TABLE int condClockwait(pthread_cond_t *, pthread_mutex_t *,
                                            clockid_t, const timespec *) {
  return 0;
}
// glibc's barrier wait is in a static program (mq_notify, below, brings
// its member); a dynamic one reaches this only from inside dlsym, where no
// other entry point to it exists.
SPIKETRAP_NO_UNWIND_TABLE int barrierWaitUnreached(pthread_barrier_t *) {
  return EINVAL;
}
int semWaitForever(sem_t *S) {
  int R;
  while ((R = sem_clockwait(S, CLOCK_MONOTONIC, &Forever)) &&
         errno == ETIMEDOUT) {
  }
  return R;
}
int semTimedwait(sem_t *S, const timespec *Ts) {
  return sem_clockwait(S, CLOCK_REALTIME, Ts);
}
// Without a deadline, glibc's timed join is its join (EDEADLK, EINVAL,
// cancellation).
int joinForever(pthread_t Th, void **Ret) {
  return pthread_timedjoin_np(Th, Ret, nullptr);
}
int clockNanosleep(clockid_t Clock, int Flags, const timespec *Req,
                   timespec *Rem) {
  long R = cancellableRaw(SYS_clock_nanosleep, Clock, Flags, long(Req),
                          long(Rem), 0, 0);
  return R < 0 ? int(-R) : 0; // an error number, errno untouched
}
// glibc's usleep and sleep, through its nanosleep.
int usleepByNanosleep(useconds_t Us) {
  timespec T = {time_t(Us / 1000000), long(Us % 1000000) * 1000};
  return glibc::nanosleep(&T, nullptr);
}
unsigned sleepByNanosleep(unsigned Secs) {
  int Saved = errno;
  timespec T = {time_t(Secs), 0};
  if (glibc::nanosleep(&T, &T) < 0)
    return unsigned(T.tv_sec); // interrupted: the whole seconds left
  errno = Saved;
  return 0;
}
// The signal waits: the system calls with the kernel's mask size.
int sigtimedwaitBySyscall(const sigset_t *Set, siginfo_t *Info,
                          const timespec *Ts) {
  return int(cancellableSyscall(SYS_rt_sigtimedwait, long(Set), long(Info),
                                long(Ts), _NSIG / 8, 0, 0));
}
int sigwaitinfoBySyscall(const sigset_t *Set, siginfo_t *Info) {
  return sigtimedwaitBySyscall(Set, Info, nullptr);
}
int sigwaitBySyscall(const sigset_t *Set, int *Sig) { // an error number
  long R;
  while ((R = cancellableRaw(SYS_rt_sigtimedwait, long(Set), 0, 0, _NSIG / 8,
                             0, 0)) == -EINTR) {
  }
  if (R < 0)
    return int(-R);
  *Sig = int(R);
  return 0;
}
int sigsuspendBySyscall(const sigset_t *Mask) {
  return int(cancellableSyscall(SYS_rt_sigsuspend, long(Mask), _NSIG / 8, 0,
                                0, 0, 0));
}
// The kernel writes the time left into the timeout: glibc gives it a copy.
int ppollCancellable(pollfd *Fds, nfds_t N, const timespec *Ts,
                     const sigset_t *Mask) {
  timespec Copy = Ts ? *Ts : timespec{};
  return int(cancellableSyscall(SYS_ppoll, long(Fds), long(N),
                                long(Ts ? &Copy : nullptr), long(Mask),
                                _NSIG / 8, 0));
}
int pselectCancellable(int N, fd_set *R, fd_set *W, fd_set *E,
                       const timespec *Ts, const sigset_t *Mask) {
  timespec Copy = Ts ? *Ts : timespec{};
  // pselect6's sixth argument: the mask and its size, as one pair.
  const struct {
    const sigset_t *Set;
    size_t Size;
  } Sig = {Mask, _NSIG / 8};
  return int(cancellableSyscall(SYS_pselect6, long(N), long(R), long(W),
                                long(E), long(Ts ? &Copy : nullptr),
                                long(Mask ? &Sig : nullptr)));
}
// The mask's size goes with the mask (the C library's sigset_t is larger
// than the kernel's).
int epollPwaitCancellable(int Ep, epoll_event *Events, int Max, int Timeout,
                          const sigset_t *Mask) {
  return int(cancellableSyscall(SYS_epoll_pwait, long(Ep), long(Events),
                                long(Max), long(Timeout), long(Mask),
                                _NSIG / 8));
}
int epollPwait2Cancellable(int Ep, epoll_event *Events, int Max,
                           const timespec *Ts, const sigset_t *Mask) {
  return int(cancellableSyscall(SYS_epoll_pwait2, long(Ep), long(Events),
                                long(Max), long(Ts), long(Mask), _NSIG / 8));
}

// The fortified calls have no other name: glibc's check, then the call.
extern "C" [[noreturn]] void __chk_fail(void);
template <typename Fn> Fn staticFn(uint32_t Call) {
  return reinterpret_cast<Fn>(staticWait(Call));
}
using ReadFn = ssize_t (*)(int, void *, size_t);
using PreadFn = ssize_t (*)(int, void *, size_t, off64_t);
using RecvFromFn = ssize_t (*)(int, void *, size_t, int, sockaddr *,
                               socklen_t *);
using PollFn = int (*)(pollfd *, nfds_t, int);
using PpollFn = int (*)(pollfd *, nfds_t, const timespec *, const sigset_t *);
ssize_t readChk(int Fd, void *Buf, size_t N, size_t BufLen) {
  if (N > BufLen)
    __chk_fail();
  return staticFn<ReadFn>(Wait_read)(Fd, Buf, N);
}
ssize_t preadChk(int Fd, void *Buf, size_t N, off64_t Off, size_t BufLen) {
  if (N > BufLen)
    __chk_fail();
  return staticFn<PreadFn>(Wait_pread64)(Fd, Buf, N, Off);
}
ssize_t recvfromChk(int Fd, void *Buf, size_t N, size_t BufLen, int Flags,
                    sockaddr *From, socklen_t *Len) {
  if (N > BufLen)
    __chk_fail();
  return staticFn<RecvFromFn>(Wait_recvfrom)(Fd, Buf, N, Flags, From, Len);
}
ssize_t recvChk(int Fd, void *Buf, size_t N, size_t BufLen, int Flags) {
  return recvfromChk(Fd, Buf, N, BufLen, Flags, nullptr, nullptr);
}
int pollChk(pollfd *Fds, nfds_t N, int Timeout, size_t FdsLen) {
  if (FdsLen / sizeof(*Fds) < N)
    __chk_fail();
  return staticFn<PollFn>(Wait_poll)(Fds, N, Timeout);
}
int ppollChk(pollfd *Fds, nfds_t N, const timespec *Ts, const sigset_t *Mask,
             size_t FdsLen) {
  if (FdsLen / sizeof(*Fds) < N)
    __chk_fail();
  return staticFn<PpollFn>(Wait_ppoll)(Fds, N, Ts, Mask);
}

// By WaitCall: glibc's function (null where it has no other name or it is
// not linked in), and the fallback, checked against the call's own type.
#define SPIKETRAP_GLIBC_ADDR_0(Name) nullptr
#define SPIKETRAP_GLIBC_ADDR_1(Name) reinterpret_cast<void *>(&glibc::Name)
#define SPIKETRAP_FALLBACK_0(Ret, Params, F)                                   \
  reinterpret_cast<void *>(static_cast<Ret(*) Params>(F))
#define SPIKETRAP_FALLBACK_1(Ret, Params, F) nullptr
void *const Glibc[kNumWaitCalls] = {
    nullptr,
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, G, F)                          \
  SPIKETRAP_CAT_(SPIKETRAP_GLIBC_ADDR_, SPIKETRAP_HAS_GLIBC(G))(Name),
#define SPIKETRAP_WAIT_OWN SPIKETRAP_WAIT
#include "spiketrap_waits.inc"
};
void *const Fallbacks[kNumWaitCalls] = {
    nullptr,
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, G, F)                          \
  SPIKETRAP_CAT_(SPIKETRAP_FALLBACK_, SPIKETRAP_IS_EXPORTED(F))(Ret, Params, F),
#define SPIKETRAP_WAIT_OWN SPIKETRAP_WAIT
#include "spiketrap_waits.inc"
};

} // namespace

SPIKETRAP_NO_UNWIND_TABLE void *staticWait(uint32_t Call) {
  void *F = Glibc[Call];
  return F ? F : Fallbacks[Call];
}

// glibc's signal(), the BSD one, under the other name libc.so and libc.a
// give it.
sighandler_t bsdSignal(int, sighandler_t) __asm__("bsd_signal");
SPIKETRAP_NO_UNWIND_TABLE SignalFn staticSignal() { return bsdSignal; }

// glibc's execvpe (its search of PATH) under its other name in libc.a, for
// the interposed exec calls; null in a dynamic program (dlsym finds it).
int glibcExecvpe(const char *, char *const[],
                 char *const[]) __asm__("__execvpe") __attribute__((weak));
SPIKETRAP_NO_UNWIND_TABLE ExecvpeFn staticExecvpe() { return glibcExecvpe; }

namespace {
// Members of libc.a that hold glibc's own names of calls the runtime
// interposes, which a static program's calls of those names no longer
// bring (they reach ours): a reference to a function that calls into the
// member does (a dynamic program imports the name and never calls it).
__attribute__((used)) void *const Members[] = {
    reinterpret_cast<void *>(&mq_notify),   // pthread_barrier_wait.o
    reinterpret_cast<void *>(&posix_spawn), // execvpe.o, through spawni.o
};
} // namespace

// glibc's pthread_setname_np, step by step: the calling thread through
// prctl, another through its /proc comm file, found by its kernel thread id
// (which the thread's CPU-time clock id encodes: ~tid << 3 | 6, the kernel's
// CPUCLOCK_PID). System calls of our own: no interposed call is noted.
SPIKETRAP_NO_UNWIND_TABLE int staticSetname(pthread_t Thread,
                                            const char *Name) {
  size_t Len = strlen(Name);
  if (Len >= 16) // the kernel's TASK_COMM_LEN, with the terminator
    return ERANGE;
  if (pthread_equal(Thread, pthread_self()))
    return int(
        -arch::rawSyscall(SYS_prctl, PR_SET_NAME, long(Name), 0, 0, 0, 0));
  clockid_t Clock;
  if (int E = pthread_getcpuclockid(Thread, &Clock))
    return E;
  Buffer Path;
  Path.format("/proc/self/task/{}/comm", long(~(Clock >> 3)));
  Path.push_back('\0');
  long Fd = arch::rawSyscall(SYS_openat, AT_FDCWD, long(Path.data()),
                             O_RDWR | O_CLOEXEC, 0, 0, 0);
  if (Fd < 0)
    return int(-Fd);
  long N;
  do
    N = arch::rawSyscall(SYS_write, Fd, long(Name), long(Len), 0, 0, 0);
  while (N == -EINTR);
  arch::rawSyscall(SYS_close, Fd, 0, 0, 0, 0, 0);
  return N < 0 ? int(-N) : size_t(N) != Len ? EIO : 0;
}

} // namespace __spiketrap
