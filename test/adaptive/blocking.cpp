// RUN: %clangxx %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_idle=1 %run %t 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap -g -O0 %s %rtlib -o %t0
// RUN: env SPIKETRAP_OPTIONS=report_idle=1 %run %t0 2>&1 | FileCheck %s

// The canonical spike: a function fast 15,000 times that blocks once. The
// pass marks functions that make blocking calls (here nanosleep) and adaptive
// mode never switches them off, so the one slow call is named at its own
// level, under its caller, the first time.

#include <time.h>

static volatile unsigned Sink;
__attribute__((noinline)) int lookup(int K, bool Slow) {
  unsigned S = 0;
  for (unsigned I = 0; I < 30; ++I)
    S += (unsigned(K) * I) ^ Sink;
  if (Slow) {
    timespec T{0, 3000000};
    nanosleep(&T, nullptr);
  }
  return S;
}
__attribute__((noinline)) void frame(int F) {
  for (int I = 0; I < 100; ++I)
    Sink += lookup(I, F == 150 && I == 50);
}

int main() {
  for (int F = 0; F < 200; ++F)
    frame(F);
}

// CHECK:      spike: {{[0-9.]+ m?s}} in lookup(int, bool) ({{.*}}blocking.cpp:14)
// CHECK-NEXT: thread main
// (its sleep is idle: "idle: ..." in builds that note waits, report_idle=1)
// CHECK:      #0 main
// CHECK-NEXT: #1 frame(int)
// (a "waited ... in nanosleep" line under it in builds that note waits)
// CHECK:      #2 lookup(int, bool)

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
