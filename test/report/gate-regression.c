// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t.base
// RUN: %clang %spiketrap_all -g -O2 -DREGRESSED %s %rtlib -o %t.slow
// RUN: rm -rf %t.d && mkdir -p %t.d/base %t.d/same %t.d/slow
// RUN: bash -c 'for i in 1 2 3 4 5 6; do for d in base same slow; do SPIKETRAP_OPTIONS="report=none threshold=5ms report_idle=1 report_json=%t.d/$d/r$i.json" %t.$([ $d = slow ] && echo slow || echo base) || exit; done; done'
// RUN: ls %t.d/base %t.d/same %t.d/slow | grep -c 'r[1-6].json' | FileCheck %s --check-prefix=RUNS
// RUN: not %spiketrap_report gate --fdr 0.01 %t.d/base -- %t.d/slow | FileCheck %s --check-prefix=SLOW
// RUN: %spiketrap_report gate --fdr 0.01 %t.d/base -- %t.d/same | FileCheck %s --check-prefix=SAME
// RUN: %spiketrap_report gate %t.d/base/r1.json %t.d/base/r2.json -- %t.d/slow | FileCheck %s --check-prefix=FEW

// spiketrap-report gate compares six runs of a baseline build with six of a
// candidate: a candidate whose physics() spikes on more calls and longer
// (20 ms sleeps instead of 8 ms ones), and that spikes in a new function,
// fails (exit 1); six more runs of the baseline pass; two runs are too few
// for a verdict (exit 0, saying so). Sleeps against a 5 ms threshold: a
// loaded machine makes them longer, never shorter (what it adds falls on
// both builds alike: their runs take turns), only the rows that do not
// hang on timing are checked for a verdict, and a false discovery rate of
// 1% makes a noisy p95 on a loaded machine unlikely to fail the same build
// (about 1 in 250 for a row) while six runs of a real regression still
// reach it (p = 1/924).

#include <time.h>

static void nap_ms(int ms) {
  struct timespec t = {0, ms * 1000000L};
  nanosleep(&t, 0);
}
__attribute__((noinline)) void physics(int i) {
#ifdef REGRESSED
  if (i % 2)
    nap_ms(20);
#else
  if (i % 5 == 0)
    nap_ms(8);
#endif
}
#ifdef REGRESSED
__attribute__((noinline)) void stream(void) { nap_ms(20); }
#endif
__attribute__((noinline)) void tick(int i) {
  physics(i);
#ifdef REGRESSED
  if (i == 3)
    stream();
#endif
}

int main(void) {
  for (int i = 0; i < 10; ++i)
    tick(i);
  return 0;
}

// RUNS: 18

// SLOW:      baseline: 6 runs, candidate: 6 runs; spikes per 1000 calls
// SLOW-NEXT: function metric baseline candidate change p q verdict
// SLOW-DAG:  physics spikes/1k calls {{.*}} REGRESSED
// SLOW-DAG:  stream spikes/1k calls 0.00 1000.00 new {{.*}} REGRESSED
// SLOW-DAG:  stream new stack 0/6 runs 6/6 runs new 0.00108 {{.*}} REGRESSED main;tick;stream
// SLOW:      gate: {{[0-9]+}} regressions

// SAME:      baseline: 6 runs, candidate: 6 runs
// SAME-NOT:  REGRESSED
// SAME:      gate: no regression

// FEW:      baseline: 2 runs, candidate: 6 runs
// FEW:      stream new stack {{.*}} few runs
// FEW-NOT:  REGRESSED
// FEW:      gate: too few runs to judge (baseline 2, candidate 6, at least 5 each: --min-runs): no verdict

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
