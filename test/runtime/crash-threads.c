// UNSUPPORTED: windows
// (Windows: no crash report on Windows yet (docs/windows.md).)
// Sanitizers handle SIGSEGV themselves: the runtime leaves it to them.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none:report_json=stderr:threshold=100us python3 %S/Inputs/slow_reader.py %run %t | FileCheck %s

// Sixteen threads crash at once. The first writes the report while the
// others wait for it; the process then dies of the first one's signal. With
// SA_RESETHAND the first delivery made the action the default for the whole
// process, and the second crash killed it half-way through the report. The
// report goes to a pipe nobody reads for a second, so it is still being
// written when the other threads crash.

#include <pthread.h>

#include "../Inputs/spin.h"

enum { kThreads = 16 };
static int *volatile Null;
static pthread_barrier_t Barrier;

// Spikes enough for the report to fill the pipe.
__attribute__((noinline)) void tick(void) { spin_ns(110000); }
__attribute__((noinline)) void crash_here(void) { *Null = 1; }
__attribute__((noinline)) void *worker(void *Arg) {
  pthread_barrier_wait(&Barrier);
  crash_here();
  return Arg;
}

// CHECK: status -11
// CHECK-NEXT: spiketrap: fatal signal 11 (SIGSEGV) on thread
// CHECK-NEXT: json: whole, {{[0-9]+}} spikes
int main(void) {
  for (int I = 0; I < 1000; ++I)
    tick();
  pthread_barrier_init(&Barrier, 0, kThreads);
  pthread_t T[kThreads];
  for (int I = 0; I < kThreads; ++I)
    pthread_create(&T[I], 0, worker, 0);
  pthread_join(T[0], 0);
  return 0;
}
