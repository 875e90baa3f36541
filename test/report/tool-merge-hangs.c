// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env SPIKETRAP_OPTIONS=report=none:hang_after=100ms:report_json=%t.d/a.json %t
// RUN: env SPIKETRAP_OPTIONS=report=none:hang_after=100ms:report_json=%t.d/b.json %t
// RUN: %spiketrap_report merge -o %t.d/ab.json %t.d/a.json %t.d/b.json
// RUN: %spiketrap_report validate %t.d/ab.json | FileCheck %s --check-prefix=VALID
// RUN: python3 %S/Inputs/hangs_and_open.py %t.d/ab.json | FileCheck %s
// RUN: %spiketrap_report convert --to json --min-duration 10s %t.d/ab.json | python3 %S/Inputs/hangs_and_open.py - | FileCheck %s --check-prefix=FILTERED

// spiketrap-report merge keeps each run's hangs and open calls, their
// functions, runs and the spike a hang returned as (returned_spike) mapped
// to the merged ids; a filter drops the links to spikes it leaves out.

#include <pthread.h>
#include <time.h>

// Inlined: stuck() makes no instrumented call while the watchdog looks.
__attribute__((always_inline)) static inline void nap(long ms) {
  struct timespec T = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&T, 0);
}
__attribute__((noinline)) void stuck(void) { nap(1000); }
__attribute__((noinline)) void *forever(void *arg) {
  for (;;)
    nap(1000);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, forever, 0);
  stuck();
  return 0;
}

// VALID: 1 valid, 0 invalid

// CHECK: hang run 0 stuck returned as stuck
// CHECK: hang run 1 stuck returned as stuck
// CHECK-DAG: open run 0 forever
// CHECK-DAG: open run 1 forever

// FILTERED: hang run 0 stuck returned as -
// FILTERED: hang run 1 stuck returned as -
