// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// (A static program under qemu-user is not what this checks.)
// RUN: %clang %spiketrap_all -O2 -g -static -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=1ms %run %t > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s < %t.err

// A statically linked program has no dynamic symbols for the interposed
// waiting calls to find the C library's functions by: they still work (the
// C library's internal names, or the system call), and their waits are
// still noted.

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static sem_t S;
static int Flag;

static void *signaller(void *A) {
  usleep(20 * 1000);
  pthread_mutex_lock(&M);
  Flag = 1;
  pthread_cond_signal(&C);
  pthread_mutex_unlock(&M);
  sem_post(&S);
  return A;
}

__attribute__((noinline)) void wait_for_signal(void) {
  pthread_mutex_lock(&M);
  while (!Flag)
    pthread_cond_wait(&C, &M);
  pthread_mutex_unlock(&M);
}

__attribute__((noinline)) int calls(void) {
  int Fds[2];
  if (pipe(Fds))
    return -1;
  char B = 0;
  int N = (int)write(Fds[1], "x", 1) + (int)read(Fds[0], &B, 1);
  struct pollfd P = {Fds[0], POLLIN, 0};
  struct timeval Tv = {0, 1000};
  struct timespec Ts = {0, 1000 * 1000};
  int Ep = epoll_create1(0);
  struct epoll_event E;
  sigset_t Mask;
  sigemptyset(&Mask);
  // (A kernel before 5.11 has no epoll_pwait2.)
  int Pwait2 = epoll_pwait2(Ep, &E, 1, &Ts, &Mask);
  if (Pwait2 < 0 && errno == ENOSYS)
    Pwait2 = 0;
  return N + poll(&P, 1, 1) + select(0, 0, 0, 0, &Tv) + nanosleep(&Ts, 0) +
         epoll_wait(Ep, &E, 1, 1) + epoll_pwait(Ep, &E, 1, 1, &Mask) + Pwait2 +
         pselect(0, 0, 0, 0, &Ts, &Mask) + usleep(1000) + (B == 'x');
}

int main(void) {
  sem_init(&S, 0, 0);
  pthread_t T;
  pthread_create(&T, 0, signaller, 0);
  wait_for_signal();
  int Sem = sem_wait(&S), Join = pthread_join(T, 0);
  printf("sem %d join %d calls %d\n", Sem, Join, calls());
  return 0;
}

// Each as the C library answers: 2 bytes moved, nothing ready, B read.
// OUT: sem 0 join 0 calls 3
// CHECK: spike: {{.*}} in wait_for_signal (
// CHECK: waited {{.*}} in pthread_cond_wait from wait_for_signal
