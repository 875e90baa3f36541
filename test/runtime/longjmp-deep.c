// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t 2>&1 | FileCheck %s
// RUN: %clang %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t.O0 2>&1 | FileCheck %s

// longjmp out of a stack deeper than the 256 frames the runtime records
// (issue 13, finding 5): the calls past the capacity have no frame, yet the
// thread's depth comes back with the jump, so every later spike on the
// thread is reported (before, the depth stayed past the capacity and later
// calls were not timed). The report says how many calls were left there.

#include "../Inputs/spin.h"
#include <setjmp.h>

static jmp_buf Env;
void descend(int N);
// Called through a pointer, so the optimizer keeps the recursion real.
void (*volatile Descend)(int) = descend;
__attribute__((noinline)) void descend(int N) {
  if (N == 0)
    longjmp(Env, 1);
  Descend(N - 1);
}
// 20 ms: 300 calls and a longjmp stay far below it under emulation or load.
__attribute__((noinline)) void after(void) { spin_ns(30000000); }

int main(void) {
  if (!setjmp(Env))
    descend(300);
  for (int I = 0; I < 4; ++I)
    after();
  return 0;
}

// CHECK-NOT: in descend
// CHECK: spike: {{.*}} in after
// CHECK-NOT: in descend
// CHECK: spiked on 4 of 4 calls
// main and 255 descend frames fit: 301 - 255 = 46 calls do not.
// CHECK: spiketrap: 4 spikes, 306 instrumented calls, 1 threads, 0 dropped records, 46 calls past depth 256
// CHECK-NEXT: spiketrap: 46 of the calls past depth 256 on 1 threads were left without returning
