// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS="threshold=5us spike_memory=64K report=none report_json=%t.dir/r.json" %run %t
// RUN: %spiketrap_report validate %t.dir/r.json
// RUN: python3 %S/Inputs/arena_counts.py %t.dir/r.json 8004 long_spike 4 40 | FileCheck %s

// Four threads spike at once while the spike arena is full, replacing each
// other's records; each makes one long spike, at a point of its own, while
// the others keep spiking: every long spike is kept (no short spike after
// it takes its room), each record whole (the JSON names the function and
// thread of each), and every spike is counted once, kept or dropped. Under
// ThreadSanitizer (SANITIZE=thread), the replacements' claims and the
// report's reading are checked too.

#include "../Inputs/spin.h"
#include <pthread.h>

enum { kThreads = 4, kShort = 2000 };

__attribute__((noinline)) void short_spike(void) { spin_ns(20000); }
__attribute__((noinline)) void long_spike(void) { spin_ns(40000000); }

__attribute__((noinline)) void *worker(void *Arg) {
  long Before = kShort - 500 * (long)Arg;
  for (long I = 0; I < Before; ++I)
    short_spike();
  long_spike();
  for (long I = Before; I < kShort; ++I)
    short_spike();
  return 0;
}

int main(void) {
  pthread_t T[kThreads];
  for (long I = 0; I < kThreads; ++I)
    pthread_create(&T[I], 0, worker, (void *)I);
  for (int I = 0; I < kThreads; ++I)
    pthread_join(T[I], 0);
  return 0;
}

// CHECK: kept+dropped 8004
// CHECK: long_spike records 4 from 4 threads, each >= 40 ms
// CHECK: short_spike all_spikes 8000
