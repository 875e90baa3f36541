// REQUIRES: no-sanitizer
// RUN: %clang -O2 -g -pthread %s -o %t.plain
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: %run %t.plain > %t.plain.out
// RUN: %run %t > %t.out 2> %t.err
// RUN: diff %t.plain.out %t.out
// RUN: FileCheck %s < %t.out
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// The interposed waiting calls keep the C library's answers: return values,
// errno (also errno left alone by a call that succeeds), EINTR from a signal,
// error-checking and recursive mutexes, try-locks, read-write locks held by
// the caller, sockets, vectors, timeouts (left as given), bad times, a
// condition wait on an error-checking mutex the caller does not hold, a thread
// joining itself, futex errors, cancellation inside a wait, the waits and locks
// on a clock (bad clocks, bad times refused even when the lock is free), a
// barrier. The program prints what it saw; built with and without spiketrap it
// prints the same. Each call is made inside instrumented functions, where the
// runtime notes waits. Statically linked: waits-semantics-static.c.

#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void onAlarm(int Sig) { (void)Sig; }

#define SHOW(What, Expr)                                                       \
  do {                                                                         \
    errno = 4242;                                                              \
    long R_ = (long)(Expr);                                                    \
    int E_ = errno;                                                            \
    printf("%s: %ld %s\n", What, R_, E_ == 4242 ? "errno kept" : strerror(E_)); \
  } while (0)

__attribute__((noinline)) void io(void) {
  char C;
  SHOW("read closed fd", read(987, &C, 1));
  SHOW("write closed fd", write(987, "x", 1));
  int P[2];
  if (pipe(P))
    return;
  SHOW("write pipe", write(P[1], "ab", 2));
  SHOW("read pipe", read(P[0], &C, 1));
  struct pollfd Fd = {P[0], POLLIN, 0};
  SHOW("poll ready", poll(&Fd, 1, 1000));
  close(P[0]);
  signal(SIGPIPE, SIG_IGN);
  SHOW("write broken pipe", write(P[1], "x", 1));
  close(P[1]);
  SHOW("fsync closed fd", fsync(987));
  SHOW("fdatasync closed fd", fdatasync(987));
  SHOW("waitpid no child", waitpid(-1, 0, 0));
}

// The other I/O calls, on a socket pair and a pipe.
__attribute__((noinline)) void more_io(void) {
  int S[2], P[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, S) || pipe(P))
    return;
  char B[8] = {0};
  SHOW("send", send(S[0], "abc", 3, 0));
  SHOW("recv", recv(S[1], B, 1, 0));
  SHOW("sendto", sendto(S[0], "d", 1, 0, 0, 0));
  SHOW("recvfrom", recvfrom(S[1], B, sizeof(B), 0, 0, 0));
  SHOW("recv nothing waiting", recv(S[1], B, 1, MSG_DONTWAIT));
  struct iovec V[2] = {{"ab", 2}, {"cd", 2}};
  SHOW("writev", writev(P[1], V, 2));
  struct iovec R[1] = {{B, 3}};
  SHOW("readv", readv(P[0], R, 1));
  struct pollfd Fd = {P[0], POLLIN, 0};
  struct timespec Ts = {0, 1000000};
  SHOW("ppoll ready", ppoll(&Fd, 1, &Ts, 0));
  Fd.fd = S[0];
  Fd.events = POLLPRI; // nothing comes
  SHOW("ppoll timeout", ppoll(&Fd, 1, &Ts, 0));
  printf("ppoll timeout left as given: %d\n",
         Ts.tv_sec == 0 && Ts.tv_nsec == 1000000);
  fd_set Rd;
  FD_ZERO(&Rd);
  FD_SET(P[0], &Rd);
  struct timeval Tv = {0, 1000};
  SHOW("select ready", select(P[0] + 1, &Rd, 0, 0, &Tv));
  int Ep = epoll_create1(0);
  struct epoll_event E = {EPOLLIN, {0}};
  epoll_ctl(Ep, EPOLL_CTL_ADD, P[0], &E);
  SHOW("epoll_wait ready", epoll_wait(Ep, &E, 1, 1000));
  SHOW("accept on a socket pair", accept(S[0], 0, 0));
  SHOW("connect closed fd", connect(987, 0, 0));
  SHOW("pread on a pipe", pread(P[0], B, 1, 0));
  SHOW("pwrite on a pipe", pwrite(P[1], B, 1, 0));
  SHOW("usleep", usleep(1000));
  close(Ep);
  close(S[0]), close(S[1]), close(P[0]), close(P[1]);
}

__attribute__((noinline)) void interrupted(void) {
  struct sigaction Sa;
  memset(&Sa, 0, sizeof(Sa));
  Sa.sa_handler = onAlarm; // no SA_RESTART: the sleep returns EINTR
  sigaction(SIGALRM, &Sa, 0);
  struct itimerval It = {{0, 0}, {0, 20000}};
  setitimer(ITIMER_REAL, &It, 0);
  struct timespec Long = {5, 0}, Rem = {0, 0};
  SHOW("nanosleep interrupted", nanosleep(&Long, &Rem));
  printf("remaining > 1 s: %d\n", Rem.tv_sec >= 1);
  setitimer(ITIMER_REAL, &It, 0);
  SHOW("clock_nanosleep interrupted (returns the error)",
       clock_nanosleep(CLOCK_MONOTONIC, 0, &Long, 0));
  setitimer(ITIMER_REAL, &It, 0);
  SHOW("sleep interrupted (whole seconds left)", sleep(5));
  struct timespec Bad = {0, -1};
  SHOW("nanosleep bad time", nanosleep(&Bad, 0));
}

__attribute__((noinline)) void locks(void) {
  pthread_mutexattr_t A;
  pthread_mutexattr_init(&A);
  pthread_mutexattr_settype(&A, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_t Check;
  pthread_mutex_init(&Check, &A);
  SHOW("errorcheck lock", pthread_mutex_lock(&Check));
  SHOW("errorcheck lock again", pthread_mutex_lock(&Check));
  SHOW("errorcheck trylock", pthread_mutex_trylock(&Check));
  SHOW("errorcheck unlock", pthread_mutex_unlock(&Check));
  SHOW("errorcheck unlock again", pthread_mutex_unlock(&Check));
  pthread_mutexattr_settype(&A, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_t Rec;
  pthread_mutex_init(&Rec, &A);
  SHOW("recursive lock", pthread_mutex_lock(&Rec));
  SHOW("recursive lock again", pthread_mutex_lock(&Rec));
  SHOW("recursive trylock", pthread_mutex_trylock(&Rec));
  SHOW("recursive unlock 1", pthread_mutex_unlock(&Rec));
  SHOW("recursive unlock 2", pthread_mutex_unlock(&Rec));
  SHOW("recursive unlock 3", pthread_mutex_unlock(&Rec));
  SHOW("recursive unlock 4", pthread_mutex_unlock(&Rec));
  pthread_mutex_t Plain = PTHREAD_MUTEX_INITIALIZER;
  SHOW("plain lock", pthread_mutex_lock(&Plain));
  SHOW("plain trylock", pthread_mutex_trylock(&Plain));
  SHOW("plain unlock", pthread_mutex_unlock(&Plain));
  pthread_rwlock_t Rw = PTHREAD_RWLOCK_INITIALIZER;
  SHOW("wrlock", pthread_rwlock_wrlock(&Rw));
  SHOW("rdlock while writing", pthread_rwlock_rdlock(&Rw));
  SHOW("wrlock while writing", pthread_rwlock_wrlock(&Rw));
  SHOW("rwlock unlock", pthread_rwlock_unlock(&Rw));
  SHOW("rdlock", pthread_rwlock_rdlock(&Rw));
  SHOW("rdlock twice", pthread_rwlock_rdlock(&Rw));
  SHOW("trywrlock while reading", pthread_rwlock_trywrlock(&Rw));
  SHOW("rwlock unlock 1", pthread_rwlock_unlock(&Rw));
  SHOW("rwlock unlock 2", pthread_rwlock_unlock(&Rw));
  sem_t S;
  sem_init(&S, 0, 0);
  struct timespec Soon;
  clock_gettime(CLOCK_REALTIME, &Soon);
  Soon.tv_nsec += 10 * 1000000;
  if (Soon.tv_nsec >= 1000000000)
    Soon.tv_sec++, Soon.tv_nsec -= 1000000000;
  SHOW("sem_timedwait timeout", sem_timedwait(&S, &Soon));
  pthread_cond_t Cv = PTHREAD_COND_INITIALIZER;
  pthread_mutex_lock(&Plain);
  SHOW("cond_timedwait timeout", pthread_cond_timedwait(&Cv, &Plain, &Soon));
  pthread_mutex_unlock(&Plain);
  struct timespec Bad = {0, 1000000000};
  SHOW("sem_timedwait bad time", sem_timedwait(&S, &Bad));
  pthread_mutex_lock(&Plain);
  SHOW("cond_timedwait bad time", pthread_cond_timedwait(&Cv, &Plain, &Bad));
  pthread_mutex_unlock(&Plain);
  // The calls with a clock (C++'s timed waits and locks on steady_clock).
  struct timespec Mono;
  clock_gettime(CLOCK_MONOTONIC, &Mono);
  Mono.tv_nsec += 10 * 1000000;
  if (Mono.tv_nsec >= 1000000000)
    Mono.tv_sec++, Mono.tv_nsec -= 1000000000;
  pthread_mutex_lock(&Plain);
  SHOW("cond_clockwait timeout",
       pthread_cond_clockwait(&Cv, &Plain, CLOCK_MONOTONIC, &Mono));
  SHOW("cond_clockwait bad clock",
       pthread_cond_clockwait(&Cv, &Plain, CLOCK_PROCESS_CPUTIME_ID, &Mono));
  SHOW("cond_clockwait bad time",
       pthread_cond_clockwait(&Cv, &Plain, CLOCK_MONOTONIC, &Bad));
  pthread_mutex_unlock(&Plain);
  SHOW("clocklock", pthread_mutex_clocklock(&Check, CLOCK_MONOTONIC, &Mono));
  SHOW("errorcheck clocklock again",
       pthread_mutex_clocklock(&Check, CLOCK_MONOTONIC, &Mono));
  SHOW("errorcheck unlock", pthread_mutex_unlock(&Check));
  SHOW("clocklock bad clock (free)",
       pthread_mutex_clocklock(&Plain, CLOCK_PROCESS_CPUTIME_ID, &Mono));
  SHOW("plain trylock after", pthread_mutex_trylock(&Plain));
  SHOW("plain unlock after", pthread_mutex_unlock(&Plain));
  SHOW("clockwrlock", pthread_rwlock_clockwrlock(&Rw, CLOCK_MONOTONIC, &Mono));
  SHOW("clockrdlock while writing",
       pthread_rwlock_clockrdlock(&Rw, CLOCK_MONOTONIC, &Mono));
  SHOW("rwlock unlock", pthread_rwlock_unlock(&Rw));
  SHOW("clockrdlock", pthread_rwlock_clockrdlock(&Rw, CLOCK_REALTIME, &Soon));
  SHOW("clockwrlock while reading (timeout)",
       pthread_rwlock_clockwrlock(&Rw, CLOCK_MONOTONIC, &Mono));
  SHOW("rwlock unlock", pthread_rwlock_unlock(&Rw));
  SHOW("clockrdlock bad time (free)",
       pthread_rwlock_clockrdlock(&Rw, CLOCK_MONOTONIC, &Bad));
  SHOW("clockwrlock bad clock (free)",
       pthread_rwlock_clockwrlock(&Rw, CLOCK_PROCESS_CPUTIME_ID, &Mono));
  SHOW("trywrlock after", pthread_rwlock_trywrlock(&Rw));
  SHOW("rwlock unlock", pthread_rwlock_unlock(&Rw));
  pthread_barrier_t Barrier;
  pthread_barrier_init(&Barrier, 0, 1);
  SHOW("barrier of one (the serial thread)", pthread_barrier_wait(&Barrier));
  pthread_barrier_destroy(&Barrier);
  // Not held: refused, and the mutex is left as it was (unlocked).
  SHOW("cond_wait on errorcheck mutex not held", pthread_cond_wait(&Cv, &Check));
  SHOW("errorcheck trylock after", pthread_mutex_trylock(&Check));
  SHOW("errorcheck unlock after", pthread_mutex_unlock(&Check));
  SHOW("join self", pthread_join(pthread_self(), 0));
  int Word = 1;
  SHOW("futex wait on a changed word",
       syscall(SYS_futex, &Word, FUTEX_WAIT_PRIVATE, 2, 0, 0, 0));
  SHOW("futex wake", syscall(SYS_futex, &Word, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0));
  SHOW("getpid through syscall", syscall(SYS_getpid) == getpid());
}

static int Blocked[2];
__attribute__((noinline)) void *blocked_reader(void *Arg) {
  (void)Arg;
  char C;
  (void)!read(Blocked[0], &C, 1); // a cancellation point: never returns
  return 0;
}

__attribute__((noinline)) void cancel(void) {
  if (pipe(Blocked))
    return;
  pthread_t T;
  pthread_create(&T, 0, blocked_reader, 0);
  struct timespec Wait = {0, 20 * 1000000};
  nanosleep(&Wait, 0);
  pthread_cancel(T);
  void *Ret = 0;
  SHOW("join cancelled", pthread_join(T, &Ret));
  printf("cancelled: %d\n", Ret == PTHREAD_CANCELED);
  SHOW("join again", pthread_join(T, 0) != 0);
}

int main(void) {
  setvbuf(stdout, 0, _IONBF, 0);
  io();
  more_io();
  interrupted();
  locks();
  cancel();
  return 0;
}

// CHECK: read closed fd: -1 Bad file descriptor
// CHECK: read pipe: 1 errno kept
// CHECK: write broken pipe: -1 Broken pipe
// CHECK: waitpid no child: -1 No child processes
// CHECK: send: 3 errno kept
// CHECK: recv: 1 errno kept
// CHECK: recv nothing waiting: -1 Resource temporarily unavailable
// CHECK: readv: 3 errno kept
// CHECK: ppoll timeout left as given: 1
// CHECK: accept on a socket pair: -1 Invalid argument
// CHECK: pread on a pipe: -1 Illegal seek
// CHECK: nanosleep interrupted: -1 Interrupted system call
// CHECK: remaining > 1 s: 1
// CHECK: clock_nanosleep interrupted (returns the error): 4 errno kept
// CHECK: sleep interrupted (whole seconds left): 4
// CHECK: nanosleep bad time: -1 Invalid argument
// CHECK: errorcheck lock again: 35 errno kept
// CHECK: errorcheck trylock: 16 errno kept
// CHECK: errorcheck unlock again: 1 errno kept
// CHECK: recursive unlock 4: 1 errno kept
// CHECK: rdlock while writing: 35 errno kept
// CHECK: wrlock while writing: 35 errno kept
// CHECK: trywrlock while reading: 16 errno kept
// CHECK: sem_timedwait timeout: -1 Connection timed out
// CHECK: cond_timedwait timeout: 110 errno kept
// CHECK: sem_timedwait bad time: -1 Invalid argument
// CHECK: cond_timedwait bad time: 22 errno kept
// CHECK: cond_clockwait timeout: 110 errno kept
// CHECK: cond_clockwait bad clock: 22 errno kept
// CHECK: cond_clockwait bad time: 22 errno kept
// CHECK: clocklock: 0 errno kept
// CHECK: errorcheck clocklock again: 35 errno kept
// CHECK: clocklock bad clock (free): 22 errno kept
// CHECK: plain trylock after: 0 errno kept
// CHECK: clockrdlock while writing: 35 errno kept
// CHECK: clockwrlock while reading (timeout): 110 errno kept
// CHECK: clockrdlock bad time (free): 22 errno kept
// CHECK: clockwrlock bad clock (free): 22 errno kept
// CHECK: trywrlock after: 0 errno kept
// CHECK: barrier of one (the serial thread): -1 errno kept
// CHECK: cond_wait on errorcheck mutex not held: 1 errno kept
// CHECK: errorcheck trylock after: 0 errno kept
// CHECK: errorcheck unlock after: 0 errno kept
// CHECK: join self: 35 errno kept
// CHECK: futex wait on a changed word: -1 Resource temporarily unavailable
// CHECK: join cancelled: 0 errno kept
// CHECK: cancelled: 1
