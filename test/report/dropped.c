// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS="threshold=1us spike_memory=64K report=%t.dir/r.txt report_json=%t.dir/r.json" %t
// RUN: %spiketrap_report convert --to trace -o %t.dir/t.json %t.dir/r.json
// RUN: %spiketrap_report convert --to folded -o %t.dir/r.folded %t.dir/r.json
// RUN: FileCheck %s --check-prefix=TEXT < %t.dir/r.txt
// RUN: python3 -m json.tool %t.dir/r.json | FileCheck %s --check-prefix=JSON
// RUN: FileCheck %s --check-prefix=TRACE < %t.dir/t.json
// RUN: FileCheck %s --check-prefix=FOLDED < %t.dir/r.folded

// Spike records live in bounded memory (spike_memory); when it is full,
// further spikes are counted as dropped, and every format says how many
// (the trace and folded stacks that spiketrap-report makes from the JSON too).

#include "../Inputs/spin.h"

__attribute__((noinline)) void tiny_spike(void) { spin_ns(20000); }

int main(void) {
  // 64 KiB holds about 1000 records of this depth: 5000 spikes overflow it.
  for (int i = 0; i < 5000; ++i)
    tiny_spike();
  return 0;
}

// TEXT: spiketrap: {{[0-9]+}} spikes, 5001 instrumented calls, 1 threads, {{[1-9][0-9]+}} dropped records

// JSON: "totals": {
// JSON: "dropped": {{[1-9][0-9]+}},

// TRACE: "dropped": {{[1-9][0-9]+}}
// TRACE: "name": "spiketrap: {{[0-9]+}} spike records dropped (raise spike_memory)"

// FOLDED: # spiketrap folded spike stacks (microseconds): {{[0-9]+}} spikes, {{[1-9][0-9]+}} dropped records
