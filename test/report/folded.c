// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --folded %t.folded -- %t 2>&1 | count 0
// RUN: FileCheck %s < %t.folded

// Folded stacks (spiketrap-report), one line per distinct stack weighted in
// microseconds, for flamegraph.pl and speedscope: identical stacks are
// summed, and a caller counts only its time outside callees that spiked.

#include "../Inputs/spin.h"

__attribute__((noinline)) void parse(void) { spin_ns(20000000); }
__attribute__((noinline)) void load(void) {
  spin_ns(5000000);
  parse();
  parse();
}

int main(void) {
  load();
  return 0;
}

// CHECK:      # spiketrap folded spike stacks (microseconds): 3 spikes, 0 dropped records
// CHECK-NEXT: main;load {{[0-9]{4,}$}}
// CHECK-NEXT: main;load;parse {{[0-9]{5,}$}}
// CHECK-NOT:  {{.}}
