// RUN: %clang %spiketrap -g -O2 -DSCENARIO=1 %s %rtlib -o %t.children
// RUN: env SPIKETRAP_OPTIONS=sample=0 %run %t.children 2>&1 | FileCheck %s --check-prefix=CHILDREN
// RUN: %clang %spiketrap -g -O2 -DSCENARIO=2 %s %rtlib -o %t.ignore
// RUN: %run %t.ignore 2>&1 | FileCheck %s --check-prefix=IGNORE
// RUN: %clang %spiketrap -g -O2 -DSCENARIO=3 %s %rtlib -o %t.ignore-children
// RUN: %run %t.ignore-children 2>&1 | FileCheck %s --check-prefix=IGNORE-CHILDREN
// UNSUPPORTED: emulated
// (a 0.1 ms threshold: under qemu the first run of a code path, translated
// then, can take longer than that.) The first scenario runs without
// sampling: a sample of deep that comes just after it returned lands in the
// next op, and a sample costs a call ~50-100 us on a VM (a timer interrupt).
// sample-*.c test sampling.

// The other attributes, end to end, one scenario per run. A children
// threshold (0.1 ms under the interpreter) applies to every function below it
// without its own, however deep; an ignored function is timed as a parent but
// never reported; below a function that ignores its children nothing is
// reported, but it still is.

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void deep(void) { spin_ns(500000); }
__attribute__((noinline)) void op(int i) {
  if (i == 3)
    deep();
  else
    spin_ns(0);
}
SPIKETRAP_THRESHOLD_MS(50) SPIKETRAP_CHILDREN_THRESHOLD_MS(0.1)
__attribute__((noinline)) void interpret(void) {
  for (int i = 0; i < 5; ++i)
    op(i);
}

__attribute__((noinline)) void parse(void) { spin_ns(2000000); }
SPIKETRAP_IGNORE __attribute__((noinline)) void loader(void) {
  spin_ns(3000000);
  parse();
}

__attribute__((noinline)) void lib_work(void) { spin_ns(3000000); }
SPIKETRAP_IGNORE_CHILDREN __attribute__((noinline)) void third_party(void) {
  lib_work();
}

int main(void) {
  if (SCENARIO == 1)
    interpret();
  if (SCENARIO == 2)
    loader();
  if (SCENARIO == 3)
    third_party();
  return 0;
}

// deep's 0.5 ms is under the global 1 ms but over the inherited 0.1 ms, and so
// is op around it; interpret has its own 50 ms.
// CHILDREN-NOT:  spike:
// CHILDREN:      spike: {{[0-9.]+ [mu]s}} in deep ({{.*}}), threshold 100.000 us
// CHILDREN-NEXT:   thread main
// CHILDREN-NEXT:   #0 main
// CHILDREN-NEXT:   #1 interpret ({{.*}}){{$}}
// CHILDREN-NEXT:   #2 op ({{.*}}) {{[0-9.]+ [mu]s}} > 100.000 us
// CHILDREN-NEXT:   #3 deep ({{.*}}) {{[0-9.]+ [mu]s}} > 100.000 us
// CHILDREN-NOT:  spike:
// CHILDREN:      spiketrap: 2 spikes

// IGNORE-NOT:    spike:
// IGNORE:        spike: {{[0-9.]+ m?s}} in parse ({{.*}}), threshold 1.000 ms
// IGNORE-NEXT:     thread main
// IGNORE-NEXT:     #0 main
// IGNORE-NEXT:     #1 loader ({{.*}}){{$}}
// IGNORE-NEXT:     #2 parse ({{.*}}) {{[0-9.]+}} ms > 1.000 ms
// IGNORE-NOT:    spike:
// IGNORE:        spiketrap: 1 spikes

// IGNORE-CHILDREN-NOT: spike:
// IGNORE-CHILDREN:     spike: {{[0-9.]+ m?s}} in third_party ({{.*}}), threshold 1.000 ms
// IGNORE-CHILDREN-NOT: spike:
// IGNORE-CHILDREN:     spiketrap: 1 spikes, 3 instrumented calls
