// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=adaptive=0 %run %t 2>&1 | FileCheck %s

// A direct recursion is timed once, at its outermost call, with either
// design: inside the function, its calls of itself skip its patched site
// (or the flag design's thunk). Calls through a pointer reach the site and
// are timed at every level.

#include "../Inputs/spin.h"

volatile unsigned Sink;

__attribute__((noinline)) unsigned descend(unsigned N) {
  if (N == 0) {
    spin_ns(2000000);
    return 0;
  }
  unsigned R = descend(N - 1) * 3 + N; // unsigned: no overflow
  Sink = R; // not a tail call
  return R;
}

unsigned by_pointer(unsigned N);
unsigned (*volatile ByPointer)(unsigned) = by_pointer;
__attribute__((noinline)) unsigned by_pointer(unsigned N) {
  unsigned R = N ? ByPointer(N - 1) * 3 + N : 0;
  Sink = R;
  return R;
}

int main(void) {
  for (int I = 0; I < 3; ++I)
    descend(20);
  by_pointer(5);
  return 0;
}

// Three outer calls of descend, each a spike (not 63 timed calls, 60 of
// them spikes); by_pointer's six levels; main.
// CHECK: 3/3 100% descend
// CHECK: spiketrap: 3 spikes, 10 instrumented calls, 1 threads
