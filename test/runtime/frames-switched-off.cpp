// RUN: %clangxx %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json "Cache::Cache()" | FileCheck %s --check-prefix=JSON
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.sampled.json %run %t 2> %t.sampled.err
// RUN: FileCheck %s < %t.sampled.err
// RUN: python3 %S/Inputs/sampled.py %t.sampled.json "Cache::Cache()" | FileCheck %s --check-prefix=JSON
// RUN: %clangxx %spiketrap -g -O0 %s %rtlib -o %t.O0
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0 %run %t.O0 2> %t.O0.err
// RUN: FileCheck %s < %t.O0.err
// UNSUPPORTED: windows
// (Windows: no sampling on Windows yet: the frames between timed levels come from samples and unwinding.)

// A function-local thread_local object's constructor, timed at its first
// call, spikes under a hot lookup that adaptive mode switched off long
// before (its site a NOP: it calls no hook). No sample need have seen the
// lookup: the constructor's exit runs while its callers are on the stack,
// and the spike's stack has every frame between its timed levels, the
// lookup and the function it calls untimed (hot, switched off too).

#include "../Inputs/spin.h"

volatile int Sink;

struct Cache {
  __attribute__((noinline)) Cache() { spin_ns(60000000); }
  int Hits = 1;
};

__attribute__((noinline)) int fill(int I) {
  if (I < 150000) // long after the switch-off (512 calls)
    return I & 7;
  thread_local Cache C; // constructed here, on the first slow call
  return C.Hits + (I & 3);
}

__attribute__((noinline)) int lookup(int I) {
  int S = 0;
  for (int K = 0; K < 4; ++K)
    S += (I ^ K) & 3;
  return S + fill(I);
}

__attribute__((noinline)) void frame(int N) {
  for (int I = 0; I < 1000; ++I)
    Sink += lookup(N * 1000 + I);
}

int main() {
  for (int N = 0; N < 200; ++N)
    frame(N);
  return 0;
}

// CHECK:      spike: {{.*}} in Cache::Cache() ({{.*}}frames-switched-off.cpp:[[#]]), threshold 20.000 ms
// CHECK:      #1  frame(int) (
// CHECK-NEXT:       ~ lookup(int) ({{.*}}frames-switched-off.cpp:[[#]])
// CHECK-NEXT:       ~ fill(int) ({{.*}}frames-switched-off.cpp:[[#]])
// CHECK-NEXT: #2  Cache::Cache() (
// JSON: frame(int) > ~lookup(int) > ~fill(int) > Cache::Cache() |
