// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1 %run %t 2>&1 | FileCheck %s

// A thread blocked in a call the runtime does not interpose (a system call
// the program makes itself here, as liburing does; the C library's own
// reads in stdio) inside a call that stays open gets no tick there: its
// CPU clock stands still, and the timer on it with it. Blocked ~1.2 s in
// all: a tick every millisecond of wall time would be over a thousand.
// What remains are the ticks of the little CPU time it runs: under 300.
// (No tick lands in the wait: the loop's retry on EINTR is never needed.)

#include <errno.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long nowMs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000LL + T.tv_nsec / 1000000;
}

__attribute__((noinline)) int loop(int Ep) {
  struct epoll_event Ev;
  long long End = nowMs() + 1200;
  for (long long Now; (Now = nowMs()) < End;)
    if (syscall(SYS_epoll_pwait, Ep, &Ev, 1, (int)(End - Now), 0, 0) < 0 &&
        errno != EINTR)
      return 1;
  return 0;
}

int main(void) {
  int Ep = epoll_create1(0);
  return Ep < 0 || loop(Ep);
}

// CHECK: spiketrap: watcher: {{[0-9]+}} looks, {{[0-9]+}} us of CPU; {{[0-9]+}} samples in {{([12][0-9][0-9]|[0-9]?[0-9])}} ticks of the threads
