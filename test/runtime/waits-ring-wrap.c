// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 -m json.tool --compact %t.json | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A call that waits more often than the per-thread ring holds (64 waits)
// cannot sum them all: its wait time is a lower bound, and says so.

#include <time.h>

__attribute__((noinline)) void many_naps(void) {
  struct timespec T = {0, 50 * 1000};
  for (int I = 0; I < 100; ++I)
    nanosleep(&T, 0);
}

int main(void) {
  many_naps();
  return 0;
}

// CHECK: #1  many_naps ({{.*}}waits-ring-wrap.c:{{[0-9]+}}) {{.*}} > 1.000 ms
// CHECK-NEXT: waited at least {{[0-9.]+}} ms idle (longest {{.*}} in nanosleep from many_naps ({{.*}}); running at most
// JSON: "longest_wait":{"call":"nanosleep","ns":{{[0-9]+}},"function":{{[0-9]+}},"idle":true},"wait_lower_bound":true
