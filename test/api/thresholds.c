// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=TICK < %t.out
// RUN: FileCheck %s --check-prefix=SCRIPT < %t.out
// RUN: FileCheck %s --check-prefix=LOAD < %t.out
// RUN: FileCheck %s --check-prefix=NOT < %t.out
// UNSUPPORTED: emulated
// (0.1 ms thresholds: under qemu the first run of a code path, translated
// then, can take longer than that.)

// Threshold propagation at run time with nested frames: a frame's own
// threshold (tick: 100 ms, not reported at 20 ms), its children's (script
// steps under tick: 0.1 ms), and all parents' (a slow load raises tick and
// main so only the load is reported), each set by the API.

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void script_step(int Slow) {
  if (Slow) // 2 ms, against 0.1 ms
    spin_ns(2000000);
}

__attribute__((noinline)) void load(void) {
  SPIKETRAP_SET_PARENTS_THRESHOLD_MS(500);
  spin_ns(60000000);
}

__attribute__((noinline)) void tick(int Frame) {
  SPIKETRAP_SET_FRAME_THRESHOLD_MS(100);
  SPIKETRAP_SET_CHILDREN_THRESHOLD_MS(0.1);
  script_step(Frame == 1);
  spin_ns(20000000);
  if (Frame == 2)
    load();
}

int main(void) {
  for (int Frame = 0; Frame < 3; ++Frame)
    tick(Frame);
  return 0;
}

// The slow step is over its inherited 0.1 ms; tick's 20 ms are under 100 ms.
// SCRIPT: spike: {{[0-9.]+ m?s}} in script_step ({{.*}}), threshold 100.000 us
// SCRIPT-NEXT: thread main
// SCRIPT-NEXT: #0 main
// SCRIPT-NEXT: #1 tick ({{.*}}:{{[0-9]+}}){{ *$}}
// SCRIPT-NEXT: #2 script_step
// The load keeps the inherited 0.1 ms; tick's threshold is now 500 ms.
// LOAD: spike: {{[0-9.]+ m?s}} in load ({{.*}}), threshold 100.000 us
// LOAD-NEXT: thread main
// LOAD-NEXT: #0 main
// LOAD-NEXT: #1 tick ({{.*}}:{{[0-9]+}}){{ *$}}
// LOAD-NEXT: #2 load
// TICK-NOT: spike: {{.*}} in tick
// TICK: spiketrap: 2 spikes
// NOT-NOT: spike: {{.*}} in main
