// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=5s %run %t 2>&1 | FileCheck %s --allow-empty --check-prefix=HIGH
// RUN: env SPIKETRAP_OPTIONS=threshold=500us %run %t 2>&1 | FileCheck %s --check-prefix=LOW

// SPIKETRAP_OPTIONS=threshold=... sets the global threshold. (Far above the
// 2 ms call: on a loaded machine it took 26 ms, over a 20 ms threshold.)

#include "../Inputs/spin.h"

__attribute__((noinline)) void work(void) { spin_ns(2000000); }

int main(void) {
  work();
  return 0;
}

// HIGH-NOT: {{.}}
// LOW: calls over 500.000 us
// LOW: spike: {{.*}} in work ({{.*}}threshold-option.c:{{[0-9]+}}), threshold 500.000 us
// LOW: spiketrap: 1 spikes
