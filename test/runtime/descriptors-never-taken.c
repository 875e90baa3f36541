// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %run %t | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=report=none:sample=0:hang_after=1s %run %t | FileCheck %s
// UNSUPPORTED: windows
// (Windows: getrusage and the run delay are Linux's.)

// A program at its descriptor limit (RLIMIT_NOFILE 16, every number but
// one in use) closes a descriptor and opens a file, expecting that number
// back, while two threads spike: the runtime reads their run delay from
// /proc (schedstat, status) meanwhile. Those reads never take one of the
// program's numbers, not even for a moment (before, the program's open got
// another number or failed with EMFILE, 13-38 times in 20,000).

#include "../Inputs/spin.h"
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static volatile int Done;

__attribute__((noinline)) void spike(void) { spin_ns(3000000); }

static void *worker(void *Arg) {
  (void)Arg;
  while (!Done)
    spike();
  return 0;
}

static double nowS(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

int main(void) {
  struct rlimit L = {16, 16};
  if (setrlimit(RLIMIT_NOFILE, &L))
    return 1;
  pthread_t T[2];
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], 0, worker, 0);
  // Every number taken; then 0 freed and reopened, over and over.
  while (open("/dev/null", O_RDONLY) >= 0) {
  }
  int Wrong = 0, Turns = 0;
  for (double End = nowS() + 2; nowS() < End; ++Turns) {
    close(0);
    int Fd = open("/dev/null", O_RDONLY);
    if (Fd != 0) {
      ++Wrong;
      if (Fd > 0)
        close(Fd);
      while (open("/dev/null", O_RDONLY) >= 0) {
      }
    }
  }
  Done = 1;
  for (int I = 0; I < 2; ++I)
    pthread_join(T[I], 0);
  printf("turns %s, wrong %d\n", Turns > 1000 ? "many" : "few", Wrong);
  return 0;
}

// CHECK: turns many, wrong 0
