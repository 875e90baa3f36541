// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: printf 'fun:early\n[ignore]\nfun:ignored_one\nfun:bad[\nsrc:*.c\n[threshold=fast]\nfun:ignored_two\n[never]\nfun:other\n[threshold=2s]\nfun:also_*\n' > %t.list
// RUN: env SPIKETRAP_OPTIONS=list=%t.list %run %t 2>&1 | FileCheck %s -DLIST=%t.list
// RUN: env SPIKETRAP_OPTIONS=list=%t.missing %run %t 2>&1 | FileCheck %s --check-prefix=MISSING -DLIST=%t.missing

// A bad line in a run-time list says so once, naming the file and line, and
// the rest of the list applies: here ignored_one (under [ignore]) and also_quiet (under [threshold=2s]) stay
// unreported while the bad lines' functions are reported as without a list.
// A list that cannot be read says so and applies nothing.

#include "../Inputs/spin.h"

__attribute__((noinline)) void early(void) { spin_ns(3000000); }
__attribute__((noinline)) void ignored_one(void) { spin_ns(3000000); }
__attribute__((noinline)) void ignored_two(void) { spin_ns(3000000); }
__attribute__((noinline)) void other(void) { spin_ns(3000000); }
__attribute__((noinline)) void also_quiet(void) { spin_ns(3000000); }

int main(void) {
  early();
  ignored_one();
  ignored_two();
  other();
  also_quiet();
  return 0;
}

// CHECK: spiketrap: list=[[LIST]]:1: an entry before the first section; line ignored
// CHECK-NEXT: spiketrap: list=[[LIST]]:4: fun:bad[: a '[' is not closed; line ignored
// CHECK-NEXT: spiketrap: list=[[LIST]]:5: src: entries are matched by the compiler only; at run time use fun:; line ignored
// CHECK-NEXT: spiketrap: list=[[LIST]]:6: [threshold=fast]: expected a duration
// CHECK-NEXT: spiketrap: list=[[LIST]]:8: [never] is for the compiler
// CHECK-NOT: spiketrap: list=
// CHECK-NOT: ignored_one
// CHECK-NOT: also_quiet
// CHECK-DAG: spike: {{.*}} in early
// CHECK-DAG: spike: {{.*}} in ignored_two
// CHECK-DAG: spike: {{.*}} in other
// CHECK-NOT: ignored_one
// CHECK-NOT: also_quiet

// MISSING: spiketrap: list=[[LIST]]: No such file or directory; no list applied
// MISSING: spike: {{.*}} in ignored_one
