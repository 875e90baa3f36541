// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s

// Pause and thread activity: time between pause and unpause does not count
// towards the open frames (wait_vsync's 50 ms paused wait is not a spike),
// nothing called while paused or inactive is timed, and a conditional paused
// scope pauses only when asked.

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void busy(void) { spin_ns(5000000); }

__attribute__((noinline)) void wait_vsync(void) {
  SPIKETRAP_PAUSE();
  busy();
  SPIKETRAP_UNPAUSE();
}

__attribute__((noinline)) void maybe_paused(int Pause) {
  SPIKETRAP_PAUSED_IF(Pause);
  busy();
}

int main(void) {
  for (int I = 0; I < 10; ++I)
    wait_vsync();
  maybe_paused(1);
  SPIKETRAP_SET_THREAD_ACTIVE(0);
  busy();
  SPIKETRAP_SET_THREAD_ACTIVE(1);
  maybe_paused(0); // the one spike
  return 0;
}

// CHECK-NOT: spike: {{.*}} in busy
// CHECK: spike: {{[0-9.]+ m?s}} in busy
// CHECK-NEXT: thread main
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 maybe_paused
// CHECK-NEXT: #2 busy
// CHECK-NOT: spike: {{.*}} in busy
// CHECK: spiketrap: 2 spikes
