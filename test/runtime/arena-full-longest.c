// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS="threshold=5us spike_memory=64K report=%t.dir/r.txt report_json=%t.dir/r.json" %run %t
// RUN: FileCheck %s < %t.dir/r.txt
// RUN: %spiketrap_report validate %t.dir/r.json
// RUN: python3 %S/Inputs/arena_counts.py %t.dir/r.json 5001 long_spike 1 50 | FileCheck %s --check-prefix=COUNTS

// A full spike arena keeps the longest spikes, not the first: 5000 short
// spikes fill 64 KiB many times over, then the one long spike at the very
// end (the one a user wants) takes the room of a short one. Every spike is
// counted, kept or dropped.

#include "../Inputs/spin.h"

__attribute__((noinline)) void short_spike(void) { spin_ns(20000); }
__attribute__((noinline)) void long_spike(void) { spin_ns(50000000); }

int main(void) {
  for (int i = 0; i < 5000; ++i)
    short_spike();
  long_spike();
  return 0;
}

// CHECK-DAG: {{^ +1  [0-9.]+ ms .* long_spike \(}}
// A few short spikes a preemption stretched form a row of their own.
// CHECK-DAG: {{^ +[0-9]+  .* (49[0-9][0-9]|5000)/5000 (99|100)% +short_spike \(}}
// CHECK: spike: {{[0-9.]+}} ms in long_spike (
// CHECK: spiketrap: {{[0-9]+}} spikes, 5002 instrumented calls, 1 threads, {{[1-9][0-9]+}} dropped records
// CHECK-NEXT: spiketrap: the spike memory was full: it kept the longest spikes it had room for ({{[0-9]+}} kept, {{[0-9]+}} dropped, {{[1-9][0-9]*}} of them replaced by longer ones); raise spike_memory to keep more; dropped by function: short_spike {{[0-9]+}} of 5000 (worst

// COUNTS: kept+dropped 5001
// COUNTS: long_spike records 1 from 1 threads, each >= 50 ms
// COUNTS: short_spike all_spikes 5000
