// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=frame_budget_us=20000:report_json=%t.json %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=FRAME < %t.out
// RUN: FileCheck %s --check-prefix=SPIKE < %t.out
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Frame marks number frames: a spike says which frame it was in ("frame 3",
// as PET's log did), in text and JSON; with a frame budget, a frame longer
// than it is a spike of its own even when no single call is. The JSON's
// totals count the frames marked (a rate per frame needs them).

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void step(long Ns) { spin_ns(Ns); }
// A function of its own, so its spike is not grouped with the steps'
// (a loaded machine made one 3 ms step take 401 ms, the worst of them).
__attribute__((noinline)) void long_step(void) { spin_ns(30000000); }

int main(void) {
  for (int Frame = 1; Frame <= 4; ++Frame) {
    SPIKETRAP_FRAME_MARK(); // frame N starts
    if (Frame == 2)         // one slow frame made of fast calls
      for (int I = 0; I < 100; ++I)
        step(3000000); // 300 ms: the worst frame by 270 ms
    if (Frame == 3)
      long_step();
  }
  SPIKETRAP_FRAME_MARK();
  return 0;
}

// FRAME: spike: {{[0-9.]+ m?s}} in (frame), threshold 20.000 ms
// FRAME-NEXT: thread main (tid {{[0-9]+}}), frame 2,
// SPIKE: spike: {{[0-9.]+ m?s}} in long_step ({{.*}}), threshold 1.000 ms
// SPIKE-NEXT: thread main (tid {{[0-9]+}}), frame 3,
// JSON: "frames":5}
// JSON: "spikes":[
// JSON-DAG: "frame":2,
// JSON-DAG: "frame":3,
