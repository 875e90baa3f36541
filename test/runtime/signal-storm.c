// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=adaptive=0:threshold=10s %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: POSIX signal handlers (the C runtime's signal() is a plain call on Windows).)
// TSan defers every signal to its own safe points: a 50 us storm starves it.
// UNSUPPORTED: sanitize-thread

// A storm of signals (setitimer every 50 us) whose handler runs instrumented
// code, during deep instrumented recursion, corrupts nothing: every call is
// counted, and a spike afterwards has exactly its real stack. (A 10 s
// global threshold, 1 ms for after_storm: on a loaded machine the preempted
// recursion would otherwise spike thousands of times and fill the records.)

#include "../Inputs/spin.h"
#include "spiketrap.h"
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile long HandlerCalls;
__attribute__((noinline)) void in_handler(void) { ++HandlerCalls; }
__attribute__((noinline)) void on_tick(int Sig) { in_handler(); }

long recurse(int Depth);
// Called through a pointer, so the optimizer keeps the recursion real.
long (*volatile Recurse)(int) = recurse;
__attribute__((noinline)) long recurse(int Depth) {
  if (Depth == 0)
    return 1;
  return Recurse(Depth - 1) + 1;
}
SPIKETRAP_THRESHOLD_MS(1)
__attribute__((noinline)) void after_storm(void) { spin_ns(3000000); }

int main(void) {
  signal(SIGALRM, on_tick);
  struct itimerval Storm = {{0, 50}, {0, 50}}, Off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &Storm, 0);
  long Sum = 0;
  for (int Round = 0; Round < 3000; ++Round)
    Sum += recurse(200);
  setitimer(ITIMER_REAL, &Off, 0);
  after_storm();
  // main, 3000 x 201 recurse, after_storm, and on_tick + in_handler per signal.
  fprintf(stderr, "calls: %ld signals: %ld\n", 2 + 3000 * 201 + 2 * HandlerCalls,
         HandlerCalls);
  return Sum == 3000 * 201 ? 0 : 1;
}

// CHECK: calls: [[CALLS:[0-9]+]] signals: {{[1-9][0-9]*}}
// CHECK: spike: {{.*}} in after_storm
// CHECK-NEXT: thread main (tid {{[0-9]+}}), {{.*}} after start{{$}}
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 after_storm
// CHECK: spiketrap: {{[0-9]+}} spikes, [[CALLS]] instrumented calls, 1 threads, 0 dropped records
