// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err | FileCheck %s --check-prefix=OUT
// RUN: python3 %S/Inputs/sampled.py %t.json | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user keeps the last real-time signals for itself: the program's own
// SIGRTMAX handler is never called there)

// Sampling takes the last real-time signal the program leaves at its default
// action (SIGRTMAX here). The program still sees that action as the
// default, and once it installs a handler of its own, that handler gets its
// own signals and no others: sampling stops first.

#include "../Inputs/spin.h"
#include <signal.h>
#include <stdio.h>

static volatile int Mine;

static void onSignal(int Sig) { Mine += Sig == SIGRTMAX; }

__attribute__((noinline)) void before(void) { spin_ns(40000000); }
__attribute__((noinline)) void after(void) { spin_ns(40000000); }

int main(void) {
  struct sigaction Old;
  sigaction(SIGRTMAX, 0, &Old);
  printf("default before: %d\n", Old.sa_handler == SIG_DFL);
  before(); // sampled
  signal(SIGRTMAX, onSignal);
  after(); // not sampled: the signal is the program's now
  raise(SIGRTMAX);
  printf("handled: %d\n", Mine);
  return 0;
}

// OUT: default before: 1
// OUT-NEXT: handled: 1
// JSON-DAG: before | no culprit
// JSON-DAG: after | not sampled
