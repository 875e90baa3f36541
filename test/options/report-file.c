// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS=report=%t.dir/spikes.%%p.txt %run %t 2>&1 | count 0
// RUN: cat %t.dir/spikes.*.txt | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=report=%t.dir/no/such/dir/r.txt %run %t 2>&1 | FileCheck %s --check-prefixes=FALLBACK,CHECK

// report=PATH writes the report to a file, %p becoming the pid; a path that
// cannot be written falls back to stderr with a line saying so.

#include "../Inputs/spin.h"

__attribute__((noinline)) void hitch(void) { spin_ns(2000000); }

int main(void) {
  hitch();
  return 0;
}

// FALLBACK: spiketrap: report: cannot write '{{.*}}no/such/dir/r.txt': No such file or directory; writing it to stderr
// CHECK: spike: {{.*}} in hitch ({{.*}}report-file.c:12)
// CHECK: spiketrap: 1 spikes
