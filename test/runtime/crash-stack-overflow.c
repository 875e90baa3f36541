// UNSUPPORTED: windows
// (Windows: no crash report on Windows yet (docs/windows.md).)
// Sanitizers handle SIGSEGV themselves: the runtime leaves it to them.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json not --crash %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID

// A stack overflow on the main thread of a program that set no alternate
// signal stack: the kernel can deliver its SIGSEGV only on one (libevent's
// regress suite overflowed so, run with --no-fork). The runtime gives the
// main thread one when it has none; without it the process died with
// nothing written, the spikes recorded before the crash included. Its open
// calls, thousands deep, are shown by their ends (crash-deep-recursion.c).

#include "../Inputs/spin.h"

__attribute__((noinline)) void load_level(void) { spin_ns(3000000); }

// optnone: no tail call, no loop; the array makes each frame big. Through
// a pointer, so each level is a timed call (a direct recursion is timed
// once).
int descend(int N);
int (*volatile Descend)(int) = descend;
__attribute__((noinline, optnone)) int descend(int N) {
  volatile char Frame[512];
  Frame[0] = (char)N;
  return Descend(N + 1) + Frame[0];
}

// CHECK: spiketrap: fatal signal 11 (SIGSEGV) on thread {{[0-9]+}}; the reports follow
// CHECK: spike: {{.*}} in load_level
// CHECK: open: thread main (tid {{[0-9]+}}), {{[0-9]+}} calls deep: main {{.*}} > descend {{.*}} > ... 244 calls, all descend ... > descend {{.*}} > ... {{[0-9]+}} calls past depth 256, not kept{{$}}
// CHECK: spiketrap: {{[0-9]+}} spikes, {{.*}} {{[1-9][0-9]*}} calls past depth 256
// VALID: 1 valid, 0 invalid
int main(void) {
  for (int I = 0; I < 5; ++I)
    load_level();
  return descend(0);
}
