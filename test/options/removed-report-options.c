// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env SPIKETRAP_OPTIONS="report_html=%t.d/r.html report_trace=%t.d/t.json report_folded=%t.d/r.folded suggest_list=%t.d/s.list" %run %t 2>&1 | FileCheck %s
// RUN: ls %t.d | count 0

// The formats the runtime no longer writes (spiketrap-report makes them from
// the JSON record): their old options get one line each saying how to get
// the format now, and the run carries on with its text report.

#include "../Inputs/spin.h"

__attribute__((noinline)) void hitch(void) { spin_ns(3000000); }

int main(void) {
  hitch();
  return 0;
}

// CHECK:      spiketrap: SPIKETRAP_OPTIONS: report_html= is written by spiketrap-report now: spiketrap-report run --html F -- PROGRAM, or report_json= and spiketrap-report convert --to html; ignored
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: report_trace= is written by spiketrap-report now: spiketrap-report run --trace F -- PROGRAM, or report_json= and spiketrap-report convert --to trace; ignored
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: report_folded= is written by spiketrap-report now: spiketrap-report run --folded F -- PROGRAM, or report_json= and spiketrap-report convert --to folded; ignored
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: suggest_list= is written by spiketrap-report now: spiketrap-report run --suggest-list F -- PROGRAM, or report_json= and spiketrap-report convert --to suggest-list; ignored
// CHECK:      ==== spiketrap report
// CHECK:      spike: {{.*}} in hitch
