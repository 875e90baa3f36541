// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t.base
// RUN: %clang %spiketrap_all -g -O2 -DSUBSTEPS=3 %s %rtlib -o %t.cand
// RUN: rm -rf %t.d && mkdir -p %t.d/base %t.d/cand
// RUN: bash -c 'for i in 1 2 3 4 5 6; do for d in base cand; do SPIKETRAP_OPTIONS="report=none threshold=5ms report_idle=1 report_json=%t.d/$d/r$i.json" %t.$d || exit; done; done'
// RUN: not %spiketrap_report gate %t.d/base -- %t.d/cand | FileCheck %s

// When every run marked frames, gate counts spikes per 1000 frames (the
// runs' totals.frames): a candidate that runs physics() three times per
// frame, spiking as often per call as before, spikes three times as often
// per frame (a rate per call would call it the same).

#include "spiketrap.h"
#include <time.h>

#ifndef SUBSTEPS
#define SUBSTEPS 1
#endif

static void nap_ms(int ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, 0);
}
__attribute__((noinline)) void physics(int frame) {
  if (frame % 5 == 0)
    nap_ms(8);
}

int main(void) {
  for (int frame = 0; frame < 10; ++frame) {
    SPIKETRAP_FRAME_MARK();
    for (int i = 0; i < SUBSTEPS; ++i)
      physics(frame);
  }
  return 0;
}

// CHECK:      baseline: 6 runs, candidate: 6 runs; spikes per 1000 frames
// CHECK:      physics spikes/1k frames {{.*}} REGRESSED
// CHECK:      gate: {{[0-9]+}} regression

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
