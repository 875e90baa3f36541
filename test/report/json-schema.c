// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=sample=0:report=none:report_json=%t.json %t arg1 2>&1 | count 0
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: python3 -m json.tool %t.json | FileCheck %s

// The JSON report (report_json=) passes the documented schema
// (docs/report-schema.json) and carries the run's metadata, the function
// table and every spike with its stack and culprit (sample=0: sample*).

#include "../Inputs/spin.h"

__attribute__((noinline)) void compile_shader(void) { spin_ns(20000000); }
__attribute__((noinline)) void warm_up(void) { compile_shader(); }

int main(void) {
  warm_up();
  return 0;
}

// VALID: 1 valid, 0 invalid

// CHECK:      "format": "spiketrap-report",
// CHECK-NEXT: "version": 1,
// CHECK:      "command_line": [
// CHECK-NEXT:   "{{.*}}json-schema.c.tmp",
// CHECK-NEXT:   "arg1"
// CHECK-NEXT: ],
// CHECK:      "clock": "{{tsc|monotonic}}",
// CHECK:      "options_text": "sample=0:report=none:report_json={{.*}}",
// CHECK:      "report_json": "{{.*}}.json",
// CHECK:      "totals": {
// CHECK-NEXT:   "spikes": 2,
// CHECK-NEXT:   "hangs": 0,
// CHECK-NEXT:   "dropped": 0,
// CHECK-NEXT:   "replaced": 0,
// CHECK-NEXT:   "calls": 3,
// CHECK:      "threads": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "tid": [[TID:[0-9]+]],
// CHECK-NEXT:     "name": "main"

// Functions that spiked come first, worst first.
// CHECK:      "functions": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "id": 0,
// CHECK-NEXT:     "name": "warm_up",
// CHECK-NEXT:     "file": "{{.*}}json-schema.c",
// CHECK-NEXT:     "line": 13,
// CHECK-NEXT:     "calls": 1,
// CHECK-NEXT:     "spikes": 1,
// CHECK:          "name": "compile_shader",
// CHECK:          "name": "main",
// CHECK-NEXT:     "file": "{{.*}}json-schema.c",
// CHECK-NEXT:     "line": 15,
// CHECK-NEXT:     "calls": 1,
// CHECK-NEXT:     "spikes": 0
// CHECK-NEXT:   }

// Spikes oldest first: the callee ends first. Its caller's level links to
// the caller's own spike.
// CHECK:      "spikes": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "id": 0,
// CHECK-NEXT:     "run": 0,
// CHECK-NEXT:     "tid": [[TID]],
// CHECK-NEXT:     "thread": "main",
// CHECK-NEXT:     "function": 1,
// CHECK-NEXT:     "start_ns": {{[0-9]+}},
// CHECK-NEXT:     "duration_ns": {{[1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]+}},
// CHECK-NEXT:     "threshold_ns": 1000000,
// CHECK-NEXT:     "child_spike_ns": 0,
// CHECK-NEXT:     "child_ns": {{[0-9]+}},
// CHECK-NEXT:     "leaf": true,
// CHECK-NEXT:     "parent": 1,
// CHECK-NEXT:     "culprit": {
// CHECK-NEXT:       "function": 1,
// CHECK-NEXT:       "how": "own",
// CHECK-NEXT:       "spike": 0
// CHECK-NEXT:     },
// CHECK-NEXT:     "stack": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "function": 2,
// CHECK-NEXT:         "start_ns": {{[0-9]+}},
// CHECK-NEXT:         "threshold_ns": null
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "function": 0,
// CHECK-NEXT:         "start_ns": {{[0-9]+}},
// CHECK-NEXT:         "threshold_ns": 1000000,
// CHECK-NEXT:         "spike": 1
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "function": 1,
// CHECK-NEXT:         "start_ns": {{[0-9]+}},
// CHECK-NEXT:         "threshold_ns": 1000000,
// CHECK-NEXT:         "spike": 0
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "id": 1,
// CHECK:          "function": 0,
// CHECK:          "leaf": false,
// CHECK-NEXT:     "parent": null,
// warm_up spiked only because compile_shader did: the culprit is that.
// CHECK-NEXT:     "culprit": {
// CHECK-NEXT:       "function": 1,
// CHECK-NEXT:       "how": "own",
// CHECK-NEXT:       "spike": 0
// CHECK-NEXT:     },
