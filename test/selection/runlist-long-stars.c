// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: python3 %S/../Inputs/long_lists.py long-stars > %t.list
// RUN: env SPIKETRAP_OPTIONS=list=%t.list %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/../Inputs/long_lists.py long-stars-inline > %t.opts
// RUN: sh -c 'SPIKETRAP_OPTIONS=$(cat %t.opts) %run %t' 2> %t.inline.err
// RUN: FileCheck %s < %t.inline.err

// Run-time list globs with long runs of '*' and many '*'-separated pieces
// match in time linear in the name (per piece between two '*'s): a 1 MB run
// of '*' ignores the function it ends with (it overflowed the stack at the
// first instrumented call), and 4,000 "*a" pieces ending in a letter no
// name has match nothing, at once (they hung the first call of every
// function).

#include "../Inputs/spin.h"

__attribute__((noinline)) void be_quiet(void) { spin_ns(3000000); }
__attribute__((noinline)) void aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa(void) {
  spin_ns(3000000);
}

int main(void) {
  be_quiet();
  aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa();
  return 0;
}

// CHECK-NOT: spiketrap: list=
// CHECK-NOT: be_quiet
// CHECK: spike: {{.*}} in aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
// CHECK-NOT: be_quiet
