// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: printf '# run-time list\n[ignore]\nfun:idle_?oop\n\n[threshold=50ms]\nfun:{slow_by_design,tick}\n[threshold=500us]\nfun:tick\n' > %t.list
// RUN: env SPIKETRAP_OPTIONS=list=%t.list %run %t 2>&1 | FileCheck %s

// list= in SPIKETRAP_OPTIONS reads the compile-time list format at run
// time: [ignore] entries are never reported, a [threshold=] section gives
// its functions that threshold (a later line beats an earlier one, as in the
// compiler), and fun: patterns are globs (?, *, {a,b}). Nothing to rebuild.

#include "../Inputs/spin.h"

__attribute__((noinline)) void idle_loop(void) { spin_ns(3000000); }
__attribute__((noinline)) void slow_by_design(void) { spin_ns(3000000); }
__attribute__((noinline)) void tick(void) { spin_ns(700000); }
__attribute__((noinline)) void other(void) { spin_ns(3000000); }

int main(void) {
  idle_loop();
  slow_by_design();
  tick();
  other();
  return 0;
}

// Nothing on the list is wrong: no line about it.
// CHECK-NOT: spiketrap: list=
// CHECK-NOT: idle_loop
// CHECK-NOT: slow_by_design
// CHECK-DAG: spike: {{.*}} in tick ({{.*}}), threshold 500.000 us
// CHECK-DAG: spike: {{.*}} in other ({{.*}}), threshold 1.000 ms
// CHECK-NOT: idle_loop
// CHECK-NOT: slow_by_design
