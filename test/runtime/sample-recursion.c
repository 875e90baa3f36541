// RUN: %clang %spiketrap -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json walk | FileCheck %s --check-prefix=JSON

// A direct recursion is timed once, at its outermost call: a slow call at
// depth 37 of 50 is found by the samples, one frame per level, down to it.

#include "../e2e/Inputs/spin.h"

volatile int Sink;

__attribute__((noinline)) int walk(int Depth, int Slow) {
  if (Depth == 50)
    return 1;
  int R = walk(Depth + 1, Slow);
  if (Slow && Depth == 37)
    spin_ns(100000000);
  Sink += R;
  return R + 1; // not a tail call
}

int main(void) {
  for (int N = 0; N < 100; ++N)
    Sink += walk(0, N == 60);
  return 0;
}

// CHECK:      spike: {{.*}} in walk ({{.*}}sample-recursion.c:[[#]]), threshold 20.000 ms
// CHECK:      #1  walk (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-COUNT-37: ~ walk ({{.*}}sample-recursion.c:[[#]])
// CHECK-NOT:  ~ walk
// CHECK:      spiketrap:
// JSON: walk > ~walk x37 | culprit walk: ok
