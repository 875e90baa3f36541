// RUN: %clang %spiketrap -mllvm -spiketrap-switch=flag -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t 2>&1 | FileCheck %s
// RUN: %clang %spiketrap -mllvm -spiketrap-switch=flag -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t.noprobe
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t.noprobe 2>&1 | FileCheck %s --check-prefix=NOPROBE

// Functions timed through thunks (-spiketrap-switch=flag; patchable sites
// have no probes: the sampler names such a spike).
// A compute spike on a rarely taken path of a hot function that adaptive
// mode switched off: the late probe before the path's loop times the call
// from there, so the spike is named at its own level, with its stack, the
// first time. Without probes it lands in the caller. (20 ms threshold, 60 ms
// spike: a loaded machine's preemption is no spike.)

#include "../Inputs/spin.h"

static volatile unsigned Sink;
__attribute__((noinline)) void hot(int I, int Slow) {
  for (int K = 0; K < 8; ++K)
    Sink += (unsigned)K * I;
  if (Slow)
    spin_ns(60000000); // inlined: a loop on a path taken once
}
__attribute__((noinline)) void process(void) {
  for (int I = 0; I < 100000; ++I)
    hot(I, I == 70000);
}

int main(void) {
  process();
  return 0;
}

// CHECK: spike: {{.*}} ms in hot ({{.*}}late-probe.c:{{[0-9]+}}), threshold 20.000 ms
// CHECK-NEXT: thread main
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 process
// (a loaded machine may delay process past half its threshold before the
// probe: a sample of it then comes between)
// CHECK-NOT: spike:
// CHECK: #2 hot
// NOPROBE-NOT: spike: {{.*}} in hot
// NOPROBE: spike: {{.*}} in process
// NOPROBE: candidate: hot
