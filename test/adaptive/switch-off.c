// RUN: %clang %spiketrap_all -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=sample=0:threshold=20ms %run %t > %t.on 2>&1
// RUN: FileCheck %s --check-prefix=ON < %t.on
// RUN: env SPIKETRAP_OPTIONS=adaptive=0:threshold=20ms %run %t > %t.off 2>&1
// RUN: FileCheck %s --check-prefix=OFF < %t.off

// Without late probes (late-probe.c) or sampling (sample-switched-off.c),
// which would name the spike's function, as for a slow path with no loop.
// Adaptive mode: functions called very often that never come near their
// threshold are switched off after 512 calls (they stop calling the hooks
// at all), so a late spike below them is reported at their nearest caller
// still timed, which names its switched-off callees as candidates (and times
// them again: rearm.c). With adaptive=0 every call stays timed.

#include "../Inputs/spin.h"

__attribute__((noinline)) void leaf(int I) {
  if (I == 99999)
    spin_ns(60000000); // a late spike, after the switch-off
}
__attribute__((noinline)) void hot(int I) { leaf(I); }
__attribute__((noinline)) void run(void) {
  for (int I = 0; I < 100000; ++I)
    hot(I);
}

int main(void) {
  run();
  return 0;
}

// ON-NOT: spike: {{.*}} in leaf
// ON: spike: {{.*}} in run ({{.*}}switch-off.c:{{[0-9]+}})
// ON-NEXT: thread main
// ON-NEXT: #0 main
// ON-NEXT: #1 run {{.*}}(self {{[0-9.]+}} ms, callees
// ON-NEXT: untimed: run's self time may be in callees that adaptive mode had switched off (timed again since):
// ON-NEXT: candidate: hot ({{.*}}switch-off.c:21)
// ON-NOT: #2
// main, run, and 512 calls each of hot and leaf before the switch-off.
// ON: spiketrap: {{[0-9]+}} spikes, 1026 instrumented calls

// OFF: spike: {{.*}} in leaf ({{.*}}switch-off.c:{{[0-9]+}})
// OFF-NEXT: thread main
// OFF-NEXT: #0 main
// OFF-NEXT: #1 run
// OFF-NEXT: #2 hot
// OFF-NEXT: #3 leaf
// OFF: spiketrap: {{[0-9]+}} spikes, 200002 instrumented calls
