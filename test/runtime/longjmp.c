// RUN: %clang %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 > %t.O0.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP < %t.O0.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.O0.out
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 > %t.O2.out 2>&1
// RUN: FileCheck %s --check-prefix=DEEP < %t.O2.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.O2.out

// longjmp skips the exit hooks of the frames it jumps over: the next hook
// finds them dead by frame address and closes them. Those that had run over
// their threshold by then are spikes, marked as left by a longjmp (their end
// is the next hook's time); the next spike has its real stack.

#include "../Inputs/spin.h"
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

// DEEP: spike: {{.*}} in deep
// DEEP: #2 deep
// DEEP: left by an exception or longjmp

// AFTER: spike: {{.*}} in after
// AFTER-NEXT: thread main
// AFTER-NEXT: #0 main
// AFTER-NEXT: #1 run
// AFTER-NEXT: #2 after
// Not left by a longjmp: the next line is the next spike or a suggestion.
// AFTER-NEXT: {{^(spike|suggest)}}
