// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS="threshold=10ms recent_calls=4 report=none report_json=%t.json" %run %t
// RUN: %spiketrap_report export --format jsonl -o %t.jsonl %t.json
// RUN: python3 %S/Inputs/check_rows.py %t.json %t.jsonl | FileCheck %s
// RUN: FileCheck %s --check-prefix=ROW < %t.jsonl
// RUN: %spiketrap_report export --format jsonl --rows runs %t.json | FileCheck %s --check-prefix=RUNS
// RUN: %spiketrap_report export --format jsonl --rows spikes %t.json | FileCheck %s --check-prefix=SPIKES

// export --format jsonl writes one row per run, then one per spike, with
// the run's identity repeated in each spike row, wall-clock times, and the
// stack as parallel arrays (docs/fleet.md).

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void step(void) { spin_ns(100000); }
__attribute__((noinline)) void load_asset(int frame) {
  SPIKETRAP_MESSAGEF("asset %d", frame);
  spin_ns(30000000);
}
__attribute__((noinline)) void tick(int frame) {
  step();
  if (frame == 2)
    load_asset(frame);
}

int main(void) {
  for (int frame = 1; frame <= 3; ++frame) {
    spiketrap_frame_mark();
    tick(frame);
  }
  return 0;
}

// CHECK:      rows: 1 run, 2 spikes
// CHECK-NEXT: run row: run_id host program build_id pid as the record's run; frames 3
// CHECK-NEXT: spike 0: load_asset, depth 3, leaf True, frame 2, excess = duration - threshold
// CHECK-NEXT:   identity: the run's; start = run start + offset
// CHECK-NEXT:   stack: main;tick;load_asset, files and lines of the functions, 3 thresholds
// CHECK-NEXT:   durations: tick's own spike, load_asset's own; main's open time
// CHECK-NEXT:   messages: ['', '', 'asset 2']
// CHECK-NEXT:   kernel counts: one per level
// CHECK-NEXT:   recent: step, ends with step
// CHECK-NEXT: spike 1: tick, depth 2, leaf False, frame 2, excess = duration - threshold

// ROW:      {"type":"run","version":1,"run_id":"{{[0-9a-f]+}}","host":
// ROW-SAME: "program_name":"export-jsonl.c.tmp",
// ROW-SAME: "command_line":["{{.*}}export-jsonl.c.tmp"],
// ROW-NEXT: {"type":"spike","version":1,"run_id":"{{[0-9a-f]+}}",
// ROW-SAME: "function":"load_asset","file":"{{.*}}export-jsonl.c","line":17,"depth":3,
// ROW-SAME: "stack_functions":["main","tick","load_asset"]
// ROW-NEXT: {"type":"spike",{{.*}}"function":"tick"
// ROW-NOT:  {

// RUNS:     {"type":"run"
// RUNS-NOT: "type":"spike"

// SPIKES-NOT: "type":"run"
// SPIKES:     {"type":"spike"
// SPIKES:     {"type":"spike"
// SPIKES-NOT: "type":"run"
