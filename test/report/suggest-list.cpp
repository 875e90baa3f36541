// RUN: %clangxx %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --suggest-list %t.list -- %t 2>&1 | count 0
// RUN: FileCheck %s < %t.list

// spiketrap-report run --suggest-list (or convert --to suggest-list) writes PET's suggested markup as a list file the next compile
// reads (LLVM SpecialCaseList, docs/report-format.md): functions that spiked
// on more than half of their calls, grouped in [threshold=...] sections by a
// threshold 25% above their worst spike, rounded up to 1, 2 or 5 x 10^k
// (200 ms -> 500ms; far apart, so preemption cannot reorder them).
// Names are escaped as globs. A function that spiked once in 20 calls is
// left to the report.

#include "../Inputs/spin.h"

struct Zone {
  int id;
};
// C++ names with glob characters and '=' need escaping.
__attribute__((noinline)) void load_zone(Zone *z) { spin_ns(200000000); }
__attribute__((noinline)) Zone &operator+=(Zone &z, int) {
  spin_ns(2000000);
  return z;
}
__attribute__((noinline)) void rare(int i) {
  if (i == 7)
    spin_ns(20000000);
}

int main() {
  Zone z{0};
  load_zone(&z);
  z += 1;
  for (int i = 0; i < 20; ++i)
    rare(i);
  return 0;
}

// CHECK:      # spiketrap suggestions (pid {{[0-9]+}}, started {{.*}}Z): functions that spiked on most
// CHECK-NEXT: # of their calls, each with a threshold above its worst spike.
// CHECK-NEXT: # At run time: SPIKETRAP_OPTIONS=list=<this file>; at the next compile:
// CHECK-NEXT: # -mllvm -spiketrap-list=<this file>.
// CHECK-NEXT: [threshold={{[0-9]+}}ms]
// CHECK-NEXT: # spiked on 1 of 1 calls, worst {{[0-9.]+}} ms, {{.*}}suggest-list.cpp:{{[0-9]+}}
// CHECK-NEXT: fun:operator+?(Zone&, int)
// CHECK-NEXT: [threshold={{500ms|1s}}]
// CHECK-NEXT: # spiked on 1 of 1 calls, worst {{[0-9.]+}} ms, {{.*}}suggest-list.cpp:{{[0-9]+}}
// CHECK-NEXT: fun:load_zone(Zone\*)
// CHECK-NOT:  rare
