// RUN: %clang %spiketrap -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms:report_json=%t.json %run %t 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Without late probes (which would time the spike's loop at its own level:
// late-probe.c), as for a slow path that has no loop.
// A compute spike in a hot function that adaptive mode switched off is first
// charged to the nearest timed caller, which names its switched-off callees
// as candidates and times them (and what they call) again; when the spike
// recurs, it is caught at its own level with its whole stack. The function
// that spiked then stays timed. A 100 ms threshold and 300 ms spikes: a
// loaded machine (frames of 1000 calls took 36 ms under TSan and a parallel
// build) must not make frame spike (and spend the re-arm of the second)
// before the real one.

#include "../Inputs/spin.h"

static volatile unsigned Sink;
__attribute__((noinline)) void leaf(int I) {
  for (int K = 0; K < 8; ++K)
    Sink += (unsigned)K * I;
  if (I == 40000 || I == 90000)
    spin_ns(300000000);
}
__attribute__((noinline)) void hot(int I) { leaf(I); }
__attribute__((noinline)) void frame(int F) {
  for (int I = F * 1000; I < (F + 1) * 1000; ++I)
    hot(I);
}

int main(void) {
  for (int F = 0; F < 100; ++F)
    frame(F);
  return 0;
}

// The first spike, in frame's own time: hot is the candidate.
// CHECK-DAG: spike: {{.*}} in frame ({{.*}}rearm.c:{{[0-9]+}})
// The second, at its own level: hot and leaf were timed again.
// CHECK-DAG: spike: {{.*}} in leaf ({{.*}}rearm.c:{{[0-9]+}})
// CHECK-DAG: #2 hot ({{.*}}rearm.c:{{[0-9]+}})
// CHECK-DAG: #3 leaf ({{.*}}rearm.c:{{[0-9]+}})
// CHECK-DAG: untimed: frame's self time may be in callees that adaptive mode had switched off (timed again since):
// CHECK-DAG: candidate: hot ({{.*}}rearm.c:{{[0-9]+}})

// The first spike lists hot's id in untimed_callees.
// JSON: "untimed_callees":[{{[0-9]+}}]
