// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS="report=%t.dir/text.%%p.%%t.%%n.txt report_json=%t.dir/r.%%p.json skip_list=stderr" %t 2>&1 | FileCheck %s --check-prefix=STDERR
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES
// RUN: cat %t.dir/text.*.txt | FileCheck %s --check-prefix=TEXT
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.dir/no/such/dir/r.json" %t 2>&1 | FileCheck %s --check-prefix=FALLBACK

// Each format goes where its option says: a file whose name carries the pid
// (%p), the start time (%t) and the report number (%n), stderr, or nowhere
// (none). A path that cannot be written falls back to stderr, saying so.

#include "../Inputs/spin.h"

__attribute__((noinline)) void hitch(void) { spin_ns(20000000); }

int main(void) {
  hitch();
  return 0;
}

// STDERR:      # spiketrap skip list: functions called at least
// STDERR:      [never]

// FILES:      r.{{[0-9]+}}.json
// FILES-NEXT: text.{{[0-9]+}}.{{20[0-9]+-[0-9]+}}.1.txt

// TEXT: spike: {{.*}} in hitch

// FALLBACK:      spiketrap: report_json: cannot write '{{.*}}no/such/dir/r.json': No such file or directory; writing it to stderr
// FALLBACK-NEXT: {"format":"spiketrap-report"
// FALLBACK:      "name":"hitch"
