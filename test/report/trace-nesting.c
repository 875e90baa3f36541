// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --trace %t.trace.json -- %t 2>&1 | count 0
// RUN: python3 %S/Inputs/check_trace.py %t.trace.json | FileCheck %s

// The Chrome trace (spiketrap-report run --trace) parses as JSON; every spike is a slice on
// its thread's track, nested inside its callers' slices; a caller shared by
// two spikes (frame) is one slice; a caller that did not spike (main) is
// marked so.

#include "../Inputs/spin.h"

__attribute__((noinline)) void decode(void) { spin_ns(20000000); }
__attribute__((noinline)) void upload(void) { spin_ns(20000000); }
__attribute__((noinline)) void frame(void) {
  decode();
  upload();
}

int main(void) {
  frame();
  return 0;
}

// CHECK:      dropped 0
// CHECK-NEXT: main 0 main caller
// CHECK-NEXT: main 1 frame spike
// CHECK-NEXT: main 2 decode spike
// CHECK-NEXT: main 2 upload spike
// CHECK-NOT:  {{.}}
