// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: %t 2>&1 | FileCheck %s

// The text report opens with a summary table (a row per culprit, with the
// callers that spiked only because of it: frame), then shows each distinct
// stack once with a count, callers that spiked with their self and callee
// time (and preemption, on a loaded machine), then suggestions and totals.

#include "../Inputs/spin.h"

__attribute__((noinline)) void load_zone(void) { spin_ns(150000000); }
__attribute__((noinline)) void draw(void) { spin_ns(6000000); }
__attribute__((noinline)) void quick(void) { __asm__ volatile(""); }
__attribute__((noinline)) void frame(int i) {
  if (i == 1 || i == 3)
    load_zone();
  draw();
  for (int j = 0; j < 8; ++j)
    quick();
}

int main(void) {
  for (int i = 0; i < 4; ++i)
    frame(i);
  return 0;
}

// CHECK:      ==== spiketrap report (pid {{[0-9]+}}): calls over 1.000 ms or their own threshold ====
// CHECK-NEXT: spikes  worst      median     p95        threshold  spiked/calls  culprit < callers that spiked
// Rows by their worst spike. A loaded machine may add rows (frame, whose
// own code was preempted) and stacks of preemption.
// CHECK-DAG:  {{^}}     2  {{[0-9.]+}} ms {{ *[0-9.]+}} ms {{ *[0-9.]+}} ms {{ *}}1.000 ms   2/2 100%      load_zone ({{.*}}text-summary.c:11) < frame{{$}}
// CHECK-DAG:  {{^}}     4  {{[0-9.]+}} ms {{ *[0-9.]+}} ms {{ *[0-9.]+}} ms {{ *}}1.000 ms   4/4 100%      draw ({{.*}}text-summary.c:12) < frame{{$}}
// CHECK-NOT:  quick
// CHECK:      {{^}}spike: {{[0-9.]+ m?s}} in load_zone ({{.*}}text-summary.c:11), threshold 1.000 ms
// CHECK-NEXT:   thread main (tid {{[0-9]+}}), {{[0-9.]+ [mu]?s}} after start; this stack spiked 2 times, the worst is shown
// CHECK-NEXT:   #0  main ({{.*}}text-summary.c:22){{$}}
// CHECK-NEXT:   #1  frame ({{.*}}text-summary.c:14)      {{[0-9.]+}} ms > 1.000 ms (self {{[0-9.]+ [nmu]?s}}, callees {{[0-9.]+}} ms{{(, preempted [0-9.]+ [nmu]?s)?}})
// CHECK-NEXT:   #2  load_zone ({{.*}}text-summary.c:11)  {{[0-9.]+}} ms > 1.000 ms{{( \(self [0-9.]+ [nmu]?s, preempted [0-9.]+ [nmu]?s\))?$}}
// CHECK:      spike: {{[0-9.]+ m?s}} in draw ({{.*}}text-summary.c:12), threshold 1.000 ms
// CHECK-NEXT:   thread main (tid {{[0-9]+}}), {{[0-9.]+ [mu]?s}} after start; this stack spiked 4 times, the worst is shown
// CHECK-NEXT:   #0  main
// CHECK-NEXT:   #1  frame
// CHECK-NEXT:   #2  draw
// CHECK:      suggest: these lines are a list: SPIKETRAP_OPTIONS=list=<file> applies it at run time, -mllvm -spiketrap-list=<file> at the next compile
// CHECK-DAG:  suggest: [threshold={{[0-9]+m?s}}] fun:load_zone  # spiked on 2 of 2 calls
// CHECK-DAG:  suggest: [threshold={{[0-9]+m?s}}] fun:draw  # spiked on 4 of 4 calls, worst {{[0-9.]+}} ms, {{.*}}text-summary.c:12
// (Under a sanitizer, no watcher: a note that preemption was not measured.)
// CHECK:      spiketrap: 10 spikes, 43 instrumented calls, 1 threads, 0 dropped records
