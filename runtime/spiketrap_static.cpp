//===- spiketrap_static.cpp - The C library in a static program -----------===//
//
// What the interposed calls of spiketrap_waits.inc call in a statically
// linked program, where dlsym(RTLD_NEXT) finds nothing and our definitions
// took the C library's place: glibc's internal name of the same function
// (strong in libc.a; absent from libc.so, or public there, so a dynamic link
// never binds to a private one), weakly referenced, or where that was not
// linked in (a weak reference does not pull a member out of libc.a), our
// fallback below. Another C library, or a glibc that renamed them: the
// fallbacks. A wait reached from inside dlsym itself (an allocator's lock
// during the lookup) gets the same. Runs only then: built for size.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_static.h"
#include "spiketrap_arch.h"
#include "spiketrap_waits.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

// The table's Glibc column: a name, or none. SPIKETRAP_HAS_GLIBC(G) is 0 for
// none, 1 for a name.
#define SPIKETRAP_GLIBC_none ~, 0
#define SPIKETRAP_SECOND(A, B, ...) B
#define SPIKETRAP_SECOND_(...) SPIKETRAP_SECOND(__VA_ARGS__)
#define SPIKETRAP_HAS_GLIBC(G) SPIKETRAP_SECOND_(SPIKETRAP_GLIBC_##G, 1, ~)

// glibc::Name: glibc's internal name of Name, weak.
#define SPIKETRAP_GLIBC_DECL_0(Name, Ret, Params, G)
#define SPIKETRAP_GLIBC_DECL_1(Name, Ret, Params, G)                           \
  Ret Name Params __asm__(#G) __attribute__((weak));
#define SPIKETRAP_GLIBC_ADDR_0(Name) nullptr
#define SPIKETRAP_GLIBC_ADDR_1(Name) reinterpret_cast<void *>(&glibc::Name)
namespace glibc {
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, G, Fallback)                   \
  SPIKETRAP_CAT_(SPIKETRAP_GLIBC_DECL_, SPIKETRAP_HAS_GLIBC(G))                \
  (Name, Ret, Params, G)
#define SPIKETRAP_WAIT_OWN SPIKETRAP_WAIT
#include "spiketrap_waits.inc"
} // namespace glibc

namespace {

template <typename Fn> Fn staticFn(uint32_t Call) {
  return reinterpret_cast<Fn>(staticWait(Call));
}

// A system call's result as the C library returns it.
long sysResult(long R) {
  if (R < 0 && R > -4096) {
    errno = int(-R);
    return -1;
  }
  return R;
}

// The fallbacks: the system call itself, or, for the locks, semaphores and
// joins that have no system call, their non-blocking form until it
// succeeds (mutual exclusion kept, fairness not); condition waits release
// the mutex for 100 us (a spurious wake-up).
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
int rawUsleep(useconds_t Us) {
  timespec T = {time_t(Us / 1000000), long(Us % 1000000) * 1000};
  return staticFn<int (*)(const timespec *, timespec *)>(Wait_nanosleep)(
      &T, nullptr);
}
unsigned rawSleep(unsigned Secs) {
  timespec T = {time_t(Secs), 0}, Rem = {0, 0};
  return rawNanosleep(&T, &Rem) ? unsigned(Rem.tv_sec + (Rem.tv_nsec > 0)) : 0;
}
ssize_t rawRead(int Fd, void *B, size_t N) {
  return sys(SYS_read, Fd, long(B), long(N));
}
ssize_t rawWrite(int Fd, const void *B, size_t N) {
  return sys(SYS_write, Fd, long(B), long(N));
}
ssize_t rawPread(int Fd, void *B, size_t N, off64_t O) {
  return sys(SYS_pread64, Fd, long(B), long(N), long(O));
}
ssize_t rawPwrite(int Fd, const void *B, size_t N, off64_t O) {
  return sys(SYS_pwrite64, Fd, long(B), long(N), long(O));
}
ssize_t rawReadv(int Fd, const iovec *V, int N) {
  return sys(SYS_readv, Fd, long(V), N);
}
ssize_t rawWritev(int Fd, const iovec *V, int N) {
  return sys(SYS_writev, Fd, long(V), N);
}
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
ssize_t rawRecvfrom(int Fd, void *B, size_t N, int Fl, sockaddr *From,
                    socklen_t *L) {
  return sys(SYS_recvfrom, Fd, long(B), long(N), Fl, long(From), long(L));
}
ssize_t rawRecv(int Fd, void *B, size_t N, int Fl) {
  return rawRecvfrom(Fd, B, N, Fl, nullptr, nullptr);
}
ssize_t rawSendto(int Fd, const void *B, size_t N, int Fl, const sockaddr *To,
                  socklen_t L) {
  return sys(SYS_sendto, Fd, long(B), long(N), Fl, long(To), long(L));
}
ssize_t rawSend(int Fd, const void *B, size_t N, int Fl) {
  return rawSendto(Fd, B, N, Fl, nullptr, 0);
}
int rawAccept(int Fd, sockaddr *A, socklen_t *L) {
  return int(sys(SYS_accept4, Fd, long(A), long(L), 0));
}
int rawConnect(int Fd, const sockaddr *A, socklen_t L) {
  return int(sys(SYS_connect, Fd, long(A), long(L)));
}
pid_t rawWaitpid(pid_t P, int *St, int Opt) {
  return pid_t(sys(SYS_wait4, P, long(St), Opt, 0));
}
template <typename Lock, int (*Try)(Lock *)> int tryLoop(Lock *L) {
  int R;
  while ((R = Try(L)) == EBUSY)
    backOff();
  return R;
}
int mutexLoop(pthread_mutex_t *M) {
  return tryLoop<pthread_mutex_t, pthread_mutex_trylock>(M);
}
int rdlockLoop(pthread_rwlock_t *L) {
  return tryLoop<pthread_rwlock_t, pthread_rwlock_tryrdlock>(L);
}
int wrlockLoop(pthread_rwlock_t *L) {
  return tryLoop<pthread_rwlock_t, pthread_rwlock_trywrlock>(L);
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
  return staticFn<int (*)(pthread_mutex_t *)>(Wait_pthread_mutex_lock)(M);
}
int condWaitByNaps(pthread_cond_t *, pthread_mutex_t *M) { return condNap(M); }
int condTimedwaitByNaps(pthread_cond_t *, pthread_mutex_t *M,
                        const timespec *Abs) {
  if (pastDeadline(Abs))
    return ETIMEDOUT;
  return condNap(M);
}

// The fortified calls: glibc's check, then the call itself.
extern "C" [[noreturn]] void __chk_fail(void);
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

// By WaitCall: glibc's function (null where it has no name or it is not
// linked in), and the fallback, of the call's own type.
void *const Glibc[kNumWaitCalls] = {
    nullptr,
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, G, Fallback)                   \
  SPIKETRAP_CAT_(SPIKETRAP_GLIBC_ADDR_, SPIKETRAP_HAS_GLIBC(G))(Name),
#define SPIKETRAP_WAIT_OWN SPIKETRAP_WAIT
#include "spiketrap_waits.inc"
};
void *const Fallbacks[kNumWaitCalls] = {
    nullptr,
#define SPIKETRAP_WAIT(Name, Ret, Params, Args, G, Fallback)                   \
  reinterpret_cast<void *>(static_cast<Ret(*) Params>(Fallback)),
#define SPIKETRAP_WAIT_OWN SPIKETRAP_WAIT
#include "spiketrap_waits.inc"
};

} // namespace

void *staticWait(uint32_t Call) {
  void *F = Glibc[Call];
  return F ? F : Fallbacks[Call];
}

} // namespace __spiketrap
