// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 -m json.tool --compact %t.json | FileCheck %s --check-prefix=JSON
// RUN: %clang %spiketrap_all -O2 -g -DONLY_IDLE %s %rtlib -o %t.idle
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t.idle 2>&1 | count 0
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A call over its threshold only because it slept (a frame limiter's 30 ms
// nap) or waited for any of its descriptors (an event loop's poll tick) is
// idle, not a spike: not reported, counted in one line. A call that sleeps
// and also computes past its threshold is a spike, its sleep shown as idle.
// A program whose only late calls were idle prints nothing. (Waits are
// noted only without sanitizers, which intercept them themselves. A 20 ms
// threshold: a loaded machine, or qemu, may take a millisecond or more to
// run the few instructions around a sleep, which would make the nap a spike.)

#include "../Inputs/spin.h"
#include <poll.h>
#include <time.h>

__attribute__((noinline)) void nap(void) {
  struct timespec T = {0, 30 * 1000000};
  nanosleep(&T, 0);
}

__attribute__((noinline)) void tick(void) { poll(0, 0, 30); }

__attribute__((noinline)) void nap_and_work(void) {
  nap();
  spin_ns(60 * 1000000);
}

int main(void) {
  for (int I = 0; I < 3; ++I) {
    nap();
    tick();
  }
#ifndef ONLY_IDLE
  nap_and_work();
#endif
  return 0;
}

// CHECK:      spike: {{.*}} in nap_and_work
// CHECK-NOT:  spike:
// CHECK:      #1 nap_and_work
// CHECK-NEXT: waited {{[0-9.]+}} ms idle in nanosleep from nap ({{.*}}); running {{[0-9.]+}} ms
// CHECK-NOT:  spike:
// CHECK:      spiketrap: 1 spikes,
// CHECK-NEXT: spiketrap: 7 idle calls over their threshold not reported (report_idle=1 lists them): nap 4 (worst {{[0-9.]+}} {{m?s}} in nanosleep), tick 3 (worst {{[0-9.]+}} {{m?s}} in poll)

// JSON: "idle_calls":7,"idle":[{"name":"nap",{{.*}}"calls":4,"worst_ns":{{[0-9]+}},"call":"nanosleep"},{"name":"tick",{{.*}}"calls":3,"worst_ns":{{[0-9]+}},"call":"poll"}]
// JSON: "longest_wait":{"call":"nanosleep","ns":{{[0-9]+}},"function":{{[0-9]+}},"idle":true}
// JSON-SAME: "wait_ns":[[W:[0-9]+]],"idle_ns":[[W]]
