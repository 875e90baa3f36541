// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10s %run %t > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: count 0 < %t.err
// RUN: %clang %spiketrap_all -O1 -pthread -static %s %rtlib -o %t.static
// RUN: env SPIKETRAP_OPTIONS=threshold=10s %run %t.static > %t.static.out 2> %t.static.err
// RUN: FileCheck %s < %t.static.out
// RUN: count 0 < %t.static.err

// A program may define C library functions the runtime interposes (poll,
// read, sleep, signal, pthread_mutex_lock here; legal, and done by
// programs that wrap or replace them): it links, dynamically or
// statically, and its own definitions are the ones called, by the program
// and by the runtime. The runtime's interpositions are weak, as the
// sanitizers' are, so the program's definition wins; the waits of those
// calls are simply not noted.

#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int Polls, Reads, Sleeps, Signals, Locks;

int poll(struct pollfd *Fds, nfds_t N, int Timeout) {
  ++Polls;
  struct timespec T = {Timeout / 1000, (Timeout % 1000) * 1000000L};
  return ppoll(Fds, N, Timeout < 0 ? 0 : &T, 0);
}

ssize_t read(int Fd, void *Buf, size_t N) {
  ++Reads;
  struct iovec V = {Buf, N};
  return readv(Fd, &V, 1);
}

unsigned sleep(unsigned Secs) {
  ++Sleeps;
  struct timespec T = {Secs, 0};
  return nanosleep(&T, &T) ? (unsigned)T.tv_sec : 0;
}

sighandler_t signal(int Sig, sighandler_t H) {
  ++Signals;
  struct sigaction A, Old;
  memset(&A, 0, sizeof(A));
  A.sa_handler = H;
  A.sa_flags = SA_RESTART;
  return sigaction(Sig, &A, &Old) ? SIG_ERR : Old.sa_handler;
}

int pthread_mutex_lock(pthread_mutex_t *M) {
  ++Locks;
  int R;
  while ((R = pthread_mutex_trylock(M)) == EBUSY)
    sched_yield();
  return R;
}

static volatile sig_atomic_t Got;
static void onUsr1(int Sig) { Got = Sig; }

__attribute__((noinline)) int useThem(void) {
  int P[2];
  if (pipe(P))
    return -1;
  char C = 0;
  struct pollfd Fd = {P[0], POLLIN, 0};
  int Ready = poll(&Fd, 1, 0);
  (void)!write(P[1], "x", 1);
  ssize_t N = read(P[0], &C, 1);
  unsigned Left = sleep(0);
  signal(SIGUSR1, onUsr1);
  raise(SIGUSR1);
  pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
  int L = pthread_mutex_lock(&M);
  pthread_mutex_unlock(&M);
  printf("poll %d read %zd %c sleep %u signal %d lock %d\n", Ready, N, C, Left,
         Got == SIGUSR1, L);
  return 0;
}

int main(void) {
  useThem();
  printf("own poll %d read %d sleep %d signal %d lock %d\n", Polls > 0,
         Reads > 0, Sleeps > 0, Signals > 0, Locks > 0);
  return 0;
}

// CHECK: poll 0 read 1 x sleep 0 signal 1 lock 0
// CHECK: own poll 1 read 1 sleep 1 signal 1 lock 1
