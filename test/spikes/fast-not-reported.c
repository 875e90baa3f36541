// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1:threshold=1s %run %t 2>&1 | FileCheck %s

// Functions that never come near the threshold are counted, not reported
// (a 1 s threshold: a loaded or sanitized run stretches the loop to ms)
// (verbosity=1 prints the totals of a run that had nothing to report).
// Timed: main, sum, and add's first 512 calls (then adaptive mode switches
// it off).

__attribute__((noinline)) int add(int a, int b) { return a + b; }
__attribute__((noinline)) int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s = add(s, i);
  return s;
}

int main(void) { return sum(1000) == 499500 ? 0 : 1; }

// CHECK-NOT: spike:
// CHECK: spiketrap: 0 spikes, 514 instrumented calls, 1 threads, 0 dropped records
