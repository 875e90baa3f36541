// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_idle=1:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 -m json.tool --compact %t.json | FileCheck %s --check-prefix=JSON
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// report_idle=1: idle calls over their threshold are recorded and listed as
// spikes marked idle (text and JSON), and still counted in the idle line.
// At 20 ms: under qemu-user the first pass through the hooks and the wait's
// code ran for 3.5 ms, over a 1 ms threshold by itself.

#include <time.h>

__attribute__((noinline)) void nap(void) {
  struct timespec T = {0, 50 * 1000000};
  nanosleep(&T, 0);
}

int main(void) {
  nap();
  return 0;
}

// CHECK:      spike: {{.*}} in nap
// CHECK-NEXT: thread main
// CHECK-NEXT: idle: over its threshold only by its idle waits (report_idle=1)
// CHECK:      waited {{[0-9.]+}} ms idle in nanosleep from nap
// CHECK:      spiketrap: 1 spikes,
// CHECK-NEXT: spiketrap: 1 idle call over its threshold (shown above, marked idle): nap 1

// JSON: "idle_calls":1,"idle":[{"name":"nap",
// JSON: "idle":true,"longest_wait":{"call":"nanosleep",{{.*}}"idle":true}
// VALID: valid
