// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t 2>/dev/null | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=enabled=0 %run %t | FileCheck %s --check-prefix=DISABLED
// REQUIRES: switch-sites

// A function timed through a patchable site starts timed: its entry
// instruction jumps to the trampoline. Adaptive mode switches a hot
// function off by rewriting it to a NOP (in a batch, soon after); a spike
// in its caller's own time switches it back on at once, so its next call is
// timed; with enabled=0 each site is switched off at its first call.

#include "../e2e/Inputs/spin.h"
#include "Inputs/site_state.h"
#include <stdio.h>

static volatile int Sink;
__attribute__((noinline)) int hot(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += X * I;
  return Sink;
}
__attribute__((noinline)) void caller(void) {
  hot(1);
  spin_ns(5000000); // its own time: hot is a candidate, timed again
}

int main(void) {
  printf("start: %s\n", site_state(hot));
  for (int I = 0; I < 5000; ++I)
    hot(I);
  printf("hot: %s\n", await_site(hot, "off"));
  caller();
  printf("after a spike above it: %s\n", site_state(hot));
  return 0;
}

// CHECK: start: timed
// CHECK-NEXT: hot: off
// CHECK-NEXT: after a spike above it: timed

// DISABLED: start: timed
// DISABLED-NEXT: hot: off
// DISABLED-NEXT: after a spike above it: off
