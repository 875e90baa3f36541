// RUN: %clang %spiketrap_all -g -O2 -static %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// REQUIRES: switch-sites

// A statically linked program: its sites are switched off and on like a
// dynamic one's.

#include "../e2e/Inputs/spin.h"
#include "Inputs/site_state.h"
#include <stdio.h>

static volatile int Sink;
__attribute__((noinline)) int hot(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += X * I;
  return Sink;
}
__attribute__((noinline)) void slow(void) {
  hot(1);
  spin_ns(5000000);
}

int main(void) {
  for (int I = 0; I < 5000; ++I)
    hot(I);
  printf("hot: %s\n", await_site(hot, "off"));
  slow();
  printf("hot: %s\n", site_state(hot));
  fflush(stdout);
  return 0;
}

// CHECK: hot: off
// CHECK-NEXT: hot: timed
// CHECK: spike: {{.*}} in slow
