// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json spin | FileCheck %s --check-prefix=JSON
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.sampled.json %run %t 2> %t.sampled.err
// RUN: FileCheck %s < %t.sampled.err
// RUN: python3 %S/Inputs/sampled.py %t.sampled.json spin | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: windows
// (Windows: no sampling on Windows yet: the frames between timed levels come from samples and unwinding.)

// At -O2 a call in tail position is a jump: `draw` ends by calling `spin`,
// so without more its frame is gone while `spin` runs, and the spike of
// the timed `spin` read `render > spin`, sending the user to render. The
// pass keeps calls in instrumented functions calls (-spiketrap-keep-callers),
// so `draw`, switched off by adaptive mode (hot and fast), stays on the
// stack between its timed caller and callee, and the spike's exit finds it
// there: with sampling off (no sample can have seen it) and on.

#include "../Inputs/spin.h"

volatile int Sink;

__attribute__((noinline)) void spin(double Us) { spin_ns((long)(Us * 1000)); }

__attribute__((noinline)) void draw(double Us) {
  Sink += 1;
  if (Us > 0)
    spin(Us); // a tail call
}

__attribute__((noinline)) void render(int N) {
  for (int I = 0; I < 100; ++I)
    draw(N == 80 && I == 50 ? 60000 : 0); // long after draw's switch-off
}

int main(void) {
  for (int N = 0; N < 100; ++N)
    render(N);
  return 0;
}

// CHECK:      spike: {{.*}} in spin ({{.*}}frames-tail-call.c:[[#]]), threshold 20.000 ms
// CHECK:      #1  render (
// CHECK-NEXT:       ~ draw ({{.*}}frames-tail-call.c:[[#]])
// CHECK-NEXT: #2  spin (
// JSON: render > ~draw > spin |
