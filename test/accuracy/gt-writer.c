// RUN: %clang %spiketrap -I%S/../../utils/bench/accuracy -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %t > %t.stdout 2> %t.stderr
// RUN: FileCheck %s < %t.stdout
// RUN: FileCheck %s --check-prefix=REPORT < %t.stderr
// RUN: env SPIKETRAP_OPTIONS=report=none %t %t.argv
// RUN: FileCheck %s < %t.argv
// RUN: env SPIKETRAP_OPTIONS=report=none ACCURACY_GT=%t.env %t
// RUN: FileCheck %s < %t.env

// The accuracy programs' ground truth (utils/bench/accuracy/gt.h): one JSON
// object per line, to argv[1], $ACCURACY_GT or stdout; a spike's culprit is
// the last level of its stack; an observed call is kept only from half the
// threshold on. The helpers are never timed: the run times main, culprit
// and the final gt_sync, nothing else.

#include "gt.h"

GT_NOINLINE void culprit(void) { gt_sleep_ns(1500000); }

int main(int argc, char **argv) {
  gt_init();
  gt_never_report("ignored_fn");
  gt_gray("spin_ms");
  long long t0 = gt_now();
  culprit();
  gt_spike("culprit", t0, gt_now());
  gt_near_miss("caller,near", 1000, 901000);
  gt_observed("caller,fast", 0, 499999);
  gt_observed("caller,slow", 0, 600000);
  gt_write(argc, argv);
  return 0;
}

// CHECK:      {"kind":"anchor","realtime_ns":{{[0-9]+}},"monotonic_ns":{{[0-9]+}}}
// CHECK-NEXT: {"kind":"sync","start_ns":{{[0-9]+}}}
// CHECK-NEXT: {"kind":"never_report","function":"ignored_fn"}
// CHECK-NEXT: {"kind":"gray","function":"spin_ms"}
// CHECK-NEXT: {"kind":"spike","culprit":"culprit","stack":["culprit"],"tid":{{[0-9]+}},"start_ns":{{[0-9]+}},"end_ns":{{[0-9]+}},"duration_ns":{{[1-9][0-9][0-9][0-9][0-9][0-9][0-9]+}},"expect":"over"}
// CHECK-NEXT: {"kind":"spike","culprit":"near","stack":["caller","near"],"tid":{{[0-9]+}},"start_ns":1000,"end_ns":901000,"duration_ns":900000,"expect":"under"}
// CHECK-NEXT: {"kind":"spike","culprit":"slow","stack":["caller","slow"],"tid":{{[0-9]+}},"start_ns":0,"end_ns":600000,"duration_ns":600000,"expect":"observed"}
// CHECK-NOT:  kind

// REPORT-DAG: spike: {{.*}} in culprit
// REPORT-DAG: spike: {{.*}} in gt_sync
// REPORT: spiketrap: 2 spikes, 3 instrumented calls
