// RUN: %clang %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 2>&1 | FileCheck %s
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 2>&1 | FileCheck %s

// longjmp skips the exit hooks of the frames it jumps over: the next hook
// finds them dead by frame address and closes them. Those that had run over
// their threshold by then are spikes, marked as left by a longjmp (their end
// is the next hook's time); the next spike has its real stack.

#include "../e2e/Inputs/spin.h"
#include <setjmp.h>

static jmp_buf Env;
__attribute__((noinline)) void deep(int N) {
  if (N == 0) {
    spin_ns(5000000);
    longjmp(Env, 1);
  }
  deep(N - 1);
}
__attribute__((noinline)) void after(void) { spin_ns(3000000); }
__attribute__((noinline)) void run(void) {
  if (!setjmp(Env))
    deep(10);
  after();
}

int main(void) {
  run();
  return 0;
}

// CHECK: spike: {{.*}} in deep
// CHECK: #2 deep
// CHECK: left by an exception or longjmp
// CHECK: spike: {{.*}} in after
// CHECK-NEXT: thread main
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 run
// CHECK-NEXT: #2 after
// CHECK-NOT: left by
