// RUN: %clang %spiketrap_all -g -O1 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --folded %t.folded -- %t
// RUN: FileCheck %s < %t.folded

// Folded stacks keep one stack per line and ';' between frames only: a ';'
// inside a name becomes ':', and a line break (or any control character)
// a space, so the weight stays at the end of its own line.

#include "../Inputs/spin.h"

void odd(void) __asm__("a;b\nc\td");
__attribute__((noinline)) void odd(void) { spin_ns(3000000); }

int main(void) {
  odd();
  return 0;
}

// CHECK:      # spiketrap folded spike stacks (microseconds): 1 spikes, 0 dropped records
// CHECK-NEXT: {{^}}main;a:b c d {{[0-9]{4,}$}}
// CHECK-NOT:  {{.}}
