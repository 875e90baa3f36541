// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=sample=0:threshold=20ms:report_json=%t.json %t 2>&1 | FileCheck %s
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: %spiketrap_report summary %t.json | FileCheck %s --check-prefix=TOOL
// RUN: python3 %S/../Inputs/report_json.py culprits %t.json | FileCheck %s --check-prefix=JSON

// Culprit first: a chain of callers that spiked only because a callee did
// is one row of the summary, named by the callee whose own time it was,
// with the callers shortened; a caller whose own time is over its
// threshold is a culprit too and gets a row of its own. suggest: lines name
// the culprits, not their callers; the JSON says per spike what it is
// blamed on, and spiketrap-report summary shows the same rows. A 20 ms
// threshold: a caller preempted for a few ms on a loaded machine has that
// much own time, and must not become a culprit here.

#include "../Inputs/spin.h"

__attribute__((noinline)) void setup_level(void) { spin_ns(200000000); }
__attribute__((noinline)) void load_level(void) { setup_level(); }
__attribute__((noinline)) void init_new(void) { load_level(); }
__attribute__((noinline)) void ticker(void) { init_new(); }
__attribute__((noinline)) void run_tic(void) { ticker(); }
__attribute__((noinline)) void try_run_tics(void) { run_tic(); }
__attribute__((noinline)) void decode(void) { spin_ns(50000000); }
__attribute__((noinline)) void slow_parent(void) {
  spin_ns(100000000); // its own time: 5 times its threshold
  decode();
}

int main(void) {
  try_run_tics();
  slow_parent();
  return 0;
}

// Rows go worst first: setup_level's 200 ms of CPU, slow_parent's 150 ms
// (with decode's), in the wall time of a machine that may be loaded (no
// run delays here to take out): in either order. Three rows (TOOL-NOT).
// CHECK:      spikes  worst      median     p95        threshold  spiked/calls  culprit < callers that spiked
// CHECK-DAG:       1  {{.*}}  1/1 100%      setup_level ({{.*}}text-culprit.c:{{[0-9]+}}) < load_level < init_new < ticker < ... < try_run_tics (6 levels){{$}}
// CHECK-DAG:       1  {{.*}}  1/1 100%      slow_parent ({{.*}}text-culprit.c:{{[0-9]+}}){{$}}
// CHECK-DAG:       1  {{.*}}  1/1 100%      decode ({{.*}}text-culprit.c:{{[0-9]+}}) < slow_parent{{$}}
// The stacks keep every level.
// CHECK:      #6  setup_level
// CHECK-NOT:  suggest: {{.*}}fun:{{load_level|init_new|ticker|run_tic|try_run_tics}}
// CHECK-DAG:  suggest: {{.*}}fun:setup_level
// CHECK-DAG:  suggest: {{.*}}fun:slow_parent
// CHECK-DAG:  suggest: {{.*}}fun:decode
// CHECK-NOT:  suggest: {{.*}}fun:{{load_level|init_new|ticker|run_tic|try_run_tics}}
// sample=0: no watcher, no run delays.
// CHECK:      spiketrap: self times may include preemption
// CHECK-NEXT: spiketrap: 8 spikes,

// VALID: 1 valid, 0 invalid

// TOOL:      spikes  worst      median     p95        threshold  spiked/calls  culprit < callers that spiked
// TOOL-DAG:       1  {{.*}}  1/1 100%      setup_level ({{.*}}text-culprit.c:{{[0-9]+}}) < load_level < init_new < ticker < ... < try_run_tics (6 levels){{$}}
// TOOL-DAG:       1  {{.*}}  1/1 100%      slow_parent ({{.*}}text-culprit.c:{{[0-9]+}}){{$}}
// TOOL-DAG:       1  {{.*}}  1/1 100%      decode ({{.*}}text-culprit.c:{{[0-9]+}}) < slow_parent{{$}}
// TOOL-NOT:  {{.}}

// JSON:      setup_level -> setup_level own own
// JSON-NEXT: load_level -> setup_level own of setup_level
// JSON-NEXT: init_new -> setup_level own of setup_level
// JSON-NEXT: ticker -> setup_level own of setup_level
// JSON-NEXT: run_tic -> setup_level own of setup_level
// JSON-NEXT: try_run_tics -> setup_level own of setup_level
// JSON-NEXT: decode -> decode own own
// JSON-NEXT: slow_parent -> slow_parent own own
