// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: %run %t | FileCheck %s

// Blocking calls the runtime does not interpose, each made once without a
// retry, with a 200 ms timeout, right after 6 ms of work inside an open
// call (sampled: past half its threshold). A tick on the thread's CPU clock
// comes only as the thread returns to user mode, so none of them returns
// EINTR. (The old 1 ms CLOCK_MONOTONIC tick interrupted all but the futex.)

#define _GNU_SOURCE
#include "../Inputs/spin.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <mqueue.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <threads.h>
#include <unistd.h>

static const struct timespec Ts = {0, 200000000};
static int Pair[2], Full[2], Listener, Ep, SemId, MsgId;
static volatile sig_atomic_t Alarmed;
static int Interrupted;

static void onAlarm(int S) { (void)S; Alarmed = 1; }

static void *sendLater(void *Arg) {
  (void)Arg;
  usleep(200000);
  struct {
    long Type;
    char C;
  } M = {1, 'x'};
  msgsnd(MsgId, &M, 1, 0);
  return 0;
}

// One call: true when it failed with EINTR (or, pause, woke for a signal
// other than its alarm).
static int call(int K) {
  char B[64];
  long R = 0;
  switch (K) {
  case 0:
    R = syscall(SYS_nanosleep, &Ts, 0);
    break;
  case 1:
    R = syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &Ts, 0);
    break;
  case 2:
    R = syscall(SYS_ppoll, 0, 0, &Ts, 0, 8);
    break;
  case 3: {
    struct epoll_event E;
    R = syscall(SYS_epoll_pwait, Ep, &E, 1, 200, 0, 8);
    break;
  }
  case 4:
    R = syscall(SYS_pselect6, 0, 0, 0, 0, &Ts, 0);
    break;
  case 5: {
    sigset_t S;
    sigemptyset(&S);
    sigaddset(&S, SIGUSR2);
    R = syscall(SYS_rt_sigtimedwait, &S, 0, &Ts, 8);
    break;
  }
  case 6: {
    Alarmed = 0;
    struct itimerval It = {{0, 0}, {0, 200000}};
    setitimer(ITIMER_REAL, &It, 0);
    pause();
    return !Alarmed;
  }
  case 7:
    R = recv(Pair[0], B, 1, 0);
    break;
  case 8:
    R = read(Pair[0], B, 1);
    break;
  case 9: {
    struct iovec V = {B, 1};
    struct msghdr M = {0};
    M.msg_iov = &V;
    M.msg_iovlen = 1;
    R = recvmsg(Pair[0], &M, 0);
    break;
  }
  case 10:
    R = send(Full[0], B, sizeof(B), 0);
    break;
  case 11:
    R = accept(Listener, 0, 0);
    break;
  case 12: {
    struct sembuf Op = {0, -1, 0};
    R = semtimedop(SemId, &Op, 1, &Ts);
    break;
  }
  case 13: {
    pthread_t P;
    pthread_create(&P, 0, sendLater, 0);
    struct {
      long Type;
      char C[8];
    } M;
    R = msgrcv(MsgId, &M, sizeof(M.C), 0, 0);
    int E = errno;
    pthread_join(P, 0);
    errno = E;
    break;
  }
  case 14: {
    sem_t S;
    sem_init(&S, 0, 0);
    struct timespec At;
    clock_gettime(CLOCK_MONOTONIC, &At);
    At.tv_nsec += 200000000;
    if (At.tv_nsec >= 1000000000)
      At.tv_sec += 1, At.tv_nsec -= 1000000000;
    R = sem_clockwait(&S, CLOCK_MONOTONIC, &At);
    break;
  }
  case 15:
    return thrd_sleep(&Ts, 0) == -1;
  case 16: {
    aio_context_t Ctx = 0;
    struct io_event E;
    syscall(SYS_io_setup, 1, &Ctx);
    R = syscall(SYS_io_getevents, Ctx, 1, 1, &E, &Ts);
    int Err = errno;
    syscall(SYS_io_destroy, Ctx);
    errno = Err;
    break;
  }
  case 17: {
    int Word = 0;
    R = syscall(SYS_futex, &Word, 0 /* FUTEX_WAIT */, 0, &Ts, 0, 0);
    break;
  }
  case 18: {
    mqd_t Q = mq_open("/spiketrap-tick", O_RDWR | O_CREAT, 0600, 0);
    mq_unlink("/spiketrap-tick");
    struct timespec At;
    clock_gettime(CLOCK_REALTIME, &At);
    At.tv_nsec += 200000000;
    if (At.tv_nsec >= 1000000000)
      At.tv_sec += 1, At.tv_nsec -= 1000000000;
    char Msg[8192];
    R = Q == (mqd_t)-1 ? 0 : mq_timedreceive(Q, Msg, sizeof(Msg), 0, &At);
    if (Q != (mqd_t)-1)
      mq_close(Q);
    break;
  }
  }
  return R < 0 && errno == EINTR;
}

static const char *const Names[] = {
    "nanosleep",    "clock_nanosleep", "ppoll",        "epoll_pwait",
    "pselect6",     "rt_sigtimedwait", "pause",        "recv",
    "read",         "recvmsg",         "send",         "accept",
    "semtimedop",   "msgrcv",          "sem_clockwait", "thrd_sleep",
    "io_getevents", "futex",           "mq_timedreceive"};

// Open for the whole run: past half its threshold, sampled while it works.
__attribute__((noinline)) void each_call(void) {
  for (int K = 0; K < (int)(sizeof(Names) / sizeof(Names[0])); ++K) {
    spin_ns(6000000);
    if (call(K)) {
      printf("interrupted: %s\n", Names[K]);
      ++Interrupted;
    }
  }
}

int main(void) {
  struct sigaction A = {0};
  A.sa_handler = onAlarm;
  sigaction(SIGALRM, &A, 0);
  sigset_t U;
  sigemptyset(&U);
  sigaddset(&U, SIGUSR2);
  sigprocmask(SIG_BLOCK, &U, 0);
  struct timeval Tv = {0, 200000};
  socketpair(AF_UNIX, SOCK_STREAM, 0, Pair);
  setsockopt(Pair[0], SOL_SOCKET, SO_RCVTIMEO, &Tv, sizeof(Tv));
  socketpair(AF_UNIX, SOCK_STREAM, 0, Full);
  fcntl(Full[0], F_SETFL, O_NONBLOCK);
  char Junk[4096] = {0};
  while (send(Full[0], Junk, sizeof(Junk), 0) > 0) {
  }
  fcntl(Full[0], F_SETFL, 0);
  setsockopt(Full[0], SOL_SOCKET, SO_SNDTIMEO, &Tv, sizeof(Tv));
  Listener = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr Addr = {AF_UNIX, {0}}; // autobind: an abstract name
  bind(Listener, &Addr, sizeof(sa_family_t));
  listen(Listener, 1);
  setsockopt(Listener, SOL_SOCKET, SO_RCVTIMEO, &Tv, sizeof(Tv));
  Ep = epoll_create1(0);
  SemId = semget(IPC_PRIVATE, 1, 0600);
  MsgId = msgget(IPC_PRIVATE, 0600);
  each_call();
  semctl(SemId, 0, IPC_RMID);
  msgctl(MsgId, IPC_RMID, 0);
  printf("%d interrupted\n", Interrupted);
  return 0;
}

// CHECK-NOT: interrupted:
// CHECK: 0 interrupted
