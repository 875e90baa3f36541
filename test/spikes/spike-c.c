// RUN: %clang %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 2>&1 | FileCheck %s
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 2>&1 | FileCheck %s

// A C function that busy-waits past the 1 ms default is reported with its
// caller chain, each level with file:line, and callers that also went over
// with their own durations.

#include "../Inputs/spin.h"

__attribute__((noinline)) void load_level(void) { spin_ns(3000000); }
__attribute__((noinline)) void tick(void) { load_level(); }

int main(void) {
  tick();
  return 0;
}

// CHECK: ==== spiketrap report (pid {{[0-9]+}}): calls over 1.000 ms
// CHECK: spike: {{[0-9.]+ m?s}} in load_level ({{.*}}spike-c.c:12), threshold 1.000 ms
// CHECK-NEXT: thread main (tid {{[0-9]+}}), {{.*}} after start
// CHECK-NEXT: #0 main ({{.*}}spike-c.c:15){{$}}
// CHECK-NEXT: #1 tick ({{.*}}spike-c.c:13) {{[0-9.]+}} ms > 1.000 ms
// CHECK-NEXT: #2 load_level ({{.*}}spike-c.c:12) {{[0-9.]+}} ms > 1.000 ms
// CHECK: spiketrap: {{[0-9]+}} spikes, 3 instrumented calls, 1 threads, 0 dropped records
