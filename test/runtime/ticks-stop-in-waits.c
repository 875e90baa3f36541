// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1 %run %t 2>&1 | FileCheck %s

// A thread ticks only while it runs: its timer is on its own CPU clock,
// which stands still while it waits (a poll or an event loop's
// epoll_pwait, a sleep, a condition variable, a read that blocks). Each
// thread here waits ~1.2 s in all inside open calls; ticking through the
// waits every millisecond would be well over a thousand ticks. (Two digits
// at most: the ticks of the short runs between waits.)

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

static int Pipe[2];

// The readiness waits, with a signal mask where they take one.
__attribute__((noinline)) void idle_poll(void) {
  int Ep = epoll_create1(0);
  struct epoll_event E;
  struct timespec Ts = {0, 150 * 1000 * 1000};
  sigset_t Mask;
  sigemptyset(&Mask);
  poll(0, 0, 150);
  epoll_pwait(Ep, &E, 1, 150, &Mask);
  // (A kernel before 5.11 has no epoll_pwait2: the other three then wait.)
  if (epoll_pwait2(Ep, &E, 1, &Ts, &Mask) < 0 && errno == ENOSYS)
    poll(0, 0, 150);
  pselect(0, 0, 0, 0, &Ts, &Mask);
}

__attribute__((noinline)) void idle_sleep(void) {
  for (int I = 0; I < 4; ++I)
    usleep(150000);
}

__attribute__((noinline)) void *reader(void *Arg) {
  char C;
  (void)Arg;
  // Blocks until main writes, after its waits: ~1.2 s.
  return read(Pipe[0], &C, 1) == 1 ? 0 : Arg;
}

int main(void) {
  if (pipe(Pipe))
    return 1;
  pthread_t T;
  pthread_create(&T, 0, reader, 0);
  idle_poll();
  idle_sleep();
  if (write(Pipe[1], "x", 1) != 1)
    return 1;
  pthread_join(T, 0);
  return 0;
}

// CHECK: spiketrap: watcher: {{[0-9]+}} looks, {{[0-9]+}} us of CPU; {{[0-9]+}} samples in {{[0-9]?[0-9]}} ticks of the threads
