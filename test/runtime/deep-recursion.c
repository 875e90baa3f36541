// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP < %t.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.out

// Recursion past the stack's 256 frames: the calls beyond are counted, not
// timed; the stack comes back in sync when they return; spikes of the frames
// that fit are still reported, and so is the next spike, with its real
// stack.

#include "../Inputs/spin.h"

long descend(int N);
// Called through a pointer, so the optimizer keeps the recursion real.
long (*volatile Descend)(int) = descend;
__attribute__((noinline)) long descend(int N) {
  if (N == 0) {
    spin_ns(3000000); // inside 1000 frames: the top frames are not timed
    return 0;
  }
  return Descend(N - 1) + 1;
}
__attribute__((noinline)) void root(void) { descend(999); }
__attribute__((noinline)) void after(void) { spin_ns(2000000); }

int main(void) {
  root();
  after();
  return 0;
}

// main, root and 254 descend frames fit; 1000 - 254 = 746 descend calls
// do not.
// main, root and 254 descend frames fit; 1000 - 254 = 746 descend calls
// do not.
// DEEP: spike: {{.*}} in descend ({{.*}}deep-recursion.c:{{[0-9]+}})
// DEEP-NEXT: thread main
// DEEP-NEXT: #0 main
// DEEP-NEXT: #1 root
// DEEP: #255 descend
// DEEP-NOT: #256
// DEEP: spiketrap: {{[0-9]+}} spikes, 1003 instrumented calls, 1 threads, 0 dropped records, 746 calls past depth 256

// AFTER: spike: {{.*}} in after
// AFTER-NEXT: thread main
// AFTER-NEXT: #0 main
// AFTER-NEXT: #1 after
