// RUN: %clang %spiketrap -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json frame | FileCheck %s --check-prefix=JSON
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably; not tried on AArch64
// hardware)

// A hot function adaptive mode switched off (it calls no hook any more)
// runs long once: its timed caller spikes, and the samples taken while the
// caller was open past half its threshold name the function where the time
// went, marked as sampled. (Without late probes, which would time its loop:
// as for a slow path with no loop, or patched sites.)

#include "../Inputs/spin.h"

volatile int Sink;

__attribute__((noinline)) int hot(int I) {
  int S = 0;
  for (int K = 0; K < 8; ++K)
    S += (I ^ K) & 7;
  if (I == 150000) // long after the switch-off (512 calls)
    spin_ns(100000000);
  return S;
}

__attribute__((noinline)) void frame(int N) {
  for (int I = 0; I < 1000; ++I)
    Sink += hot(N * 1000 + I);
}

int main(void) {
  for (int N = 0; N < 200; ++N)
    frame(N);
  return 0;
}

// CHECK:      spike: {{.*}} in frame ({{.*}}sample-switched-off.c:[[#]]), threshold 20.000 ms
// CHECK:      #1  frame (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ hot ({{.*}}sample-switched-off.c:[[#]])
// JSON: frame > ~hot | culprit hot: ok
// VALID: 1 valid, 0 invalid
