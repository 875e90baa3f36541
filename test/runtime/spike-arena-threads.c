// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=1us:report=none:report_json=%t.json %run %t
// RUN: python3 %S/../Inputs/report_json.py spike-count %t.json | FileCheck %s

// Four threads record spikes as fast as they can: the arena is made
// resident ahead of the records, 64 KiB at a time, by whichever thread
// crosses the mark, while the others write records into the same pages.
// The prefault's read of each page races with those writes by design; under
// ThreadSanitizer (SANITIZE=thread) it was a reported race, failing this test.

#include "../Inputs/spin.h"
#include <pthread.h>

enum { kThreads = 4, kSpikes = 2500 };

__attribute__((noinline)) void hitch(void) { spin_ns(3000); }
__attribute__((noinline)) void *worker(void *Arg) {
  for (int I = 0; I < kSpikes; ++I)
    hitch();
  return Arg;
}

// CHECK: spikes 10000 dropped 0
int main(void) {
  pthread_t T[kThreads];
  for (int I = 0; I < kThreads; ++I)
    pthread_create(&T[I], 0, worker, 0);
  for (int I = 0; I < kThreads; ++I)
    pthread_join(T[I], 0);
  return 0;
}
