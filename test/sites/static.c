// RUN: %clang %spiketrap_all -g -O2 -static %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t 2>&1 | FileCheck %s
// RUN: %clang %spiketrap_all -g -O2 -static-pie %s %rtlib -o %t.pie
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t.pie 2>&1 | FileCheck %s
// REQUIRES: switch-sites, no-sanitizer

// A statically linked program (and a static PIE, which relocates its own
// trampoline slots): its sites are switched off and on like a dynamic
// one's. (100 ms: no call of hot comes near it on a loaded or
// emulated machine; slow's own threshold is 1 ms. A spike judged preempted
// on a loaded machine switches nothing on: slow runs again, 50 times at
// most, until hot's site is timed.)

#include "../Inputs/spin.h"
#include "Inputs/site_state.h"
#include "spiketrap.h"
#include <stdio.h>
#include <string.h>

static volatile int Sink;
__attribute__((noinline)) int hot(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += X * I;
  return Sink;
}
SPIKETRAP_THRESHOLD_MS(1) __attribute__((noinline)) void slow(void) {
  hot(1);
  spin_ns(5000000);
}

static void callHot(int I) { hot(I); }

int main(void) {
  printf("hot: %s\n", call_until_off(hot, callHot));
  for (int I = 0; I < 50 && strcmp(site_state(hot), "timed"); ++I)
    slow();
  printf("hot: %s\n", site_state(hot));
  fflush(stdout);
  return 0;
}

// CHECK: hot: off
// CHECK-NEXT: hot: timed
// CHECK: spike: {{.*}} in slow
