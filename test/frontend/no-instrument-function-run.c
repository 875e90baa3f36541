// RUN: %clang %spiketrap %spiketrap_clang -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:report_idle=1 %t 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=untimed_wait

// A slow function marked no_instrument_function is not timed at run time:
// the spike is reported at its caller, and the report never names it.

#include <time.h>

__attribute__((no_instrument_function, noinline)) void untimed_wait(void) {
  struct timespec T = {0, 60 * 1000 * 1000};
  nanosleep(&T, 0);
}

__attribute__((noinline)) void caller(void) { untimed_wait(); }

int main(void) {
  caller();
  return 0;
}

// CHECK: spike: {{.*}} in caller ({{.*}}no-instrument-function-run.c:[[@LINE-7]])

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
