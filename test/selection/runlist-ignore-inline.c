// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: env SPIKETRAP_OPTIONS=ignore=frame_limiter %run %t 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env SPIKETRAP_OPTIONS='ignore=frame_limiter+load_*' %run %t 2>&1 | FileCheck %s --allow-empty --check-prefix=NONE

// ignore= in SPIKETRAP_OPTIONS: functions whose names match one of its
// globs ('+' between them) are never reported, without a rebuild; their
// callers and the rest of the program are reported as before.

#include "../Inputs/spin.h"

__attribute__((noinline)) void frame_limiter(void) { spin_ns(3000000); }
__attribute__((noinline)) void load_level(void) { spin_ns(3000000); }

int main(void) {
  for (int I = 0; I < 3; ++I)
    frame_limiter();
  load_level();
  return 0;
}

// BOTH-DAG: spike: {{.*}} in frame_limiter
// BOTH-DAG: spike: {{.*}} in load_level

// ONE-NOT: frame_limiter
// ONE: spike: {{.*}} in load_level
// ONE-NOT: frame_limiter

// NONE-NOT: spike
