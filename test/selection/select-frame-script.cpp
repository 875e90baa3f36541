// RUN: %clangxx %spiketrap -g -O2 %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s

// Thresholds from attributes, end to end: the frame function may take 200 ms
// and the script step 20 ms, while everything else keeps the runtime's 1 ms.
// Frames of ~1.5 ms and short script steps are not reported; the one 400 ms
// frame and the one 60 ms script step are, each against its own threshold,
// and nothing else is. (Wide margins: a loaded machine preempts for tens of
// milliseconds.)

#include "../Inputs/spin.h"
#include "spiketrap.h"

namespace {

SPIKETRAP_THRESHOLD_MS(20) void runScript(int Frame, int Step) {
  spin_ns(Frame == 1 && Step == 2 ? 60000000 : 0);
}

SPIKETRAP_THRESHOLD_MS(200) void frame(int Frame) {
  for (int Step = 0; Step < 4; ++Step)
    runScript(Frame, Step);
  // Over the global 1 ms, far under 200 ms, except frame 3; frame 1 has the
  // slow script step instead.
  spin_ns(Frame == 3 ? 400000000 : Frame == 1 ? 0 : 1500000);
}

} // namespace

int main() {
  spin_ns(2000000); // warm up (clock, page faults) in main, which is ignored
  for (int Frame = 0; Frame < 5; ++Frame)
    frame(Frame);
  return 0;
}

// CHECK-NOT: spike:
// CHECK:     spike: {{[0-9.]+ m?s}} in (anonymous namespace)::frame(int) ({{.*}}select-frame-script.cpp:{{[0-9]+}}), threshold 200.000 ms
// CHECK-NOT: spike:
// CHECK:     spike: {{[0-9.]+ m?s}} in (anonymous namespace)::runScript(int, int) ({{.*}}select-frame-script.cpp:{{[0-9]+}}), threshold 20.000 ms
// CHECK-NEXT:  thread main
// CHECK-NEXT:  #0 main ({{.*}})
// CHECK-NEXT:  #1 (anonymous namespace)::frame(int) ({{.*}}){{$}}
// CHECK-NEXT:  #2 (anonymous namespace)::runScript(int, int) ({{.*}}) {{[0-9.]+ m?s}} > 20.000 ms
// CHECK-NOT: spike:
// CHECK:     spiketrap: 2 spikes, 26 instrumented calls
