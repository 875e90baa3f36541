// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.dir/a.json" %t 1
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.dir/b.json" %t 3
// RUN: %spiketrap_report summary %t.dir/a.json | FileCheck %s --check-prefix=SUMMARY
// RUN: %spiketrap_report summary --thread loader --function read_ %t.dir/b.json | FileCheck %s --check-prefix=FILTER
// RUN: %spiketrap_report summary --min-duration 10s %t.dir/b.json | FileCheck %s --check-prefix=LONG
// RUN: %spiketrap_report convert --to folded %t.dir/a.json | FileCheck %s --check-prefix=FOLDED
// RUN: %spiketrap_report convert --to trace -o %t.dir/ab.trace.json %t.dir/a.json %t.dir/b.json
// RUN: python3 %S/Inputs/check_trace.py %t.dir/ab.trace.json | FileCheck %s --check-prefix=TRACE
// RUN: %spiketrap_report merge -o %t.dir/ab.json %t.dir/a.json %t.dir/b.json
// RUN: %spiketrap_report validate %t.dir/ab.json | FileCheck %s --check-prefix=VALID
// RUN: %spiketrap_report summary %t.dir/ab.json | FileCheck %s --check-prefix=MERGED
// RUN: %spiketrap_report compare %t.dir/a.json %t.dir/b.json | FileCheck %s --check-prefix=COMPARE
// RUN: %spiketrap_report convert --to html -o %t.dir/ab.html %t.dir/ab.json
// RUN: FileCheck %s --check-prefix=HTML < %t.dir/ab.html

// utils/spiketrap-report reads JSON reports: its summary and filters, its
// folded stacks, a Chrome trace of two runs (one
// process track each), a merge that still passes the schema, a comparison
// of two runs and an HTML page.

#define _GNU_SOURCE
#include "../Inputs/spin.h"
#include <pthread.h>
#include <spiketrap.h>
#include <stdlib.h>

__attribute__((noinline)) void read_pak(void) { spin_ns(200000000); }
__attribute__((noinline)) void decompress(void) { spin_ns(50000000); }
static int Loads;
// Spikes (its callees take 250 ms a load), but never in its own time, which
// is tens of microseconds: unless the thread is preempted there for longer
// than the threshold (a loaded machine preempted it for 25 ms, over the
// default 1 ms, and load_all got a summary row of its own).
SPIKETRAP_THRESHOLD_MS(150)
__attribute__((noinline)) void load_all(void) {
  for (int i = 0; i < Loads; ++i) {
    read_pak();
    decompress();
  }
}
// The thread's start routine: the root of its stacks, never a spike itself.
__attribute__((noinline)) void *loader(void *arg) {
  pthread_setname_np(pthread_self(), "loader");
  load_all();
  return arg;
}

int main(int argc, char **argv) {
  Loads = atoi(argv[1]);
  pthread_t t;
  pthread_create(&t, 0, loader, 0);
  pthread_join(t, 0);
  return 0;
}

// SUMMARY:      run 0: {{.*}}tool-roundtrip.c.tmp 1 (pid {{[0-9]+}}), started {{.*}}: 3 spikes, 0 dropped records
// SUMMARY-NEXT: spikes  worst      median     p95        threshold  spiked/calls  culprit < callers that spiked
// load_all spiked only because of its callees: no row of its own.
// SUMMARY-NOT:  % {{ *}}load_all
// SUMMARY-DAG:       1  {{.*}}  1/1 100%      read_pak ({{.*}}tool-roundtrip.c:{{[0-9]+}}) < load_all{{$}}
// SUMMARY-DAG:       1  {{.*}}  1/1 100%      decompress ({{.*}}tool-roundtrip.c:{{[0-9]+}}) < load_all{{$}}
// SUMMARY-NOT:  % {{ *}}load_all

// FILTER:      spikes  worst
// FILTER-NEXT:      3  {{.*}}  3/3 100%      read_pak
// FILTER-NOT:  {{decompress|load_all}}

// LONG:      spikes  worst
// LONG-NOT:  {{read_pak|decompress|load_all}}

// FOLDED:     # spiketrap folded spike stacks (microseconds): 3 spikes, 0 dropped records
// FOLDED-DAG: loader;load_all;decompress {{[0-9]{4,}$}}
// FOLDED-DAG: loader;load_all;read_pak {{[0-9]{5,}$}}

// TRACE:      dropped 0
// TRACE-NEXT: loader 0 loader caller
// TRACE-NEXT: loader 1 load_all spike
// TRACE-NEXT: loader 2 read_pak spike
// TRACE-NEXT: loader 2 decompress spike
// TRACE-NEXT: loader 0 loader caller
// TRACE-NEXT: loader 1 load_all spike
// TRACE-NEXT: loader 2 read_pak spike
// TRACE-NEXT: loader 2 decompress spike
// TRACE-NEXT: loader 2 read_pak spike
// TRACE-NEXT: loader 2 decompress spike
// TRACE-NEXT: loader 2 read_pak spike
// TRACE-NEXT: loader 2 decompress spike

// VALID: 1 valid, 0 invalid

// MERGED:      run 0: {{.*}} 1 (pid
// MERGED-NEXT: run 1: {{.*}} 3 (pid
// MERGED-NEXT: spikes  worst
// MERGED-NOT:  % {{ *}}load_all
// MERGED-DAG:       4  {{.*}}  4/4 100%      read_pak
// MERGED-DAG:       4  {{.*}}  4/4 100%      decompress
// MERGED-NOT:  % {{ *}}load_all

// COMPARE:      spikes base -> new   worst base -> new          change  function
// COMPARE-NEXT:      1 -> 3       {{.*}}  more    decompress
// COMPARE-NEXT:      1 -> 3       {{.*}}  more    read_pak
// COMPARE-NEXT:      1 -> 1       {{.*}}  same    load_all

// HTML: <script type="application/json" id="spiketrap-data">{"format": "spiketrap-report", "version": 1, "runs": [
