// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=enabled=0 %run %t 2>&1 | count 0
// RUN: %run %t 2>&1 | FileCheck %s

// enabled=0 switches the runtime off: the program runs, no report is written.

#include "../Inputs/spin.h"

__attribute__((noinline)) void slow(void) { spin_ns(2000000); }

int main(void) {
  slow();
  return 0;
}

// CHECK: spike: {{.*}} in slow
