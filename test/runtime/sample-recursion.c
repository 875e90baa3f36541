// RUN: %clang %spiketrap -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py --plain %t.json | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably; not tried on AArch64
// hardware)

// A slow call at depth 37 of a 50-deep recursion is found by the samples,
// one frame per level, down to it: the recursion is timed once, at its
// outermost call, until adaptive mode switches walk off (long before the
// slow call).

#include "../Inputs/spin.h"

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

__attribute__((noinline)) void frame(int N) { Sink += walk(0, N == 150); }

int main(void) {
  for (int N = 0; N < 200; ++N)
    frame(N);
  return 0;
}

// CHECK:      sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK:      ~ walk ({{.*}}sample-recursion.c:[[#]])
// JSON-DAG: frame > walk x38 | culprit walk: ok
