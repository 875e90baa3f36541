// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: %run %t | FileCheck %s
// UNSUPPORTED: windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)

// A call open past half its threshold is sampled by signals, but a thread
// that waits in the C library (sleeps, polls, selects) is never signalled:
// none of those calls returns EINTR, and every sleep sleeps its whole time.

#include "../Inputs/spin.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/select.h>
#include <time.h>

static int Interrupted, Short;

static long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

// Work and waits in turn, in one call open for about 200 ms: sampled all
// along while it works.
__attribute__((noinline)) void mixed(void) {
  for (int I = 0; I < 200; ++I) {
    spin_ns(500000);
    struct timespec T = {0, 300000}, Rem;
    long long T0 = nowNs();
    if (nanosleep(&T, &Rem) != 0)
      Interrupted += errno == EINTR;
    Short += nowNs() - T0 < 300000;
    if (poll(0, 0, 1) < 0)
      Interrupted += errno == EINTR;
    struct timeval Tv = {0, 200};
    if (select(0, 0, 0, 0, &Tv) < 0)
      Interrupted += errno == EINTR;
  }
}

// One long sleep in a call past half its threshold.
__attribute__((noinline)) void sleeper(void) {
  spin_ns(2000000);
  struct timespec T = {0, 100000000}, Rem;
  long long T0 = nowNs();
  if (nanosleep(&T, &Rem) != 0)
    Interrupted += errno == EINTR;
  Short += nowNs() - T0 < 100000000;
}

int main(void) {
  mixed();
  sleeper();
  printf("interrupted %d, short %d\n", Interrupted, Short);
  return 0;
}

// CHECK: interrupted 0, short 0
