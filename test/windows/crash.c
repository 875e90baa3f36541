// RUN: %clang %spiketrap_all -g -O0 %s %rtlib -o %t
// RUN: %run %t 2>%t.err || true
// RUN: FileCheck %s < %t.err
// RUN: env SPIKETRAP_OPTIONS=crash_report=0 %run %t 2>%t.off || true
// RUN: FileCheck %s --check-prefix=OFF < %t.off

// An access violation no handler takes reaches the top-level filter: the
// reports are written, with the crashing thread's open calls, before the
// exception goes on to end the process (Wine's debugger here, whose exit
// status Wine does not keep). A spike
// before the crash is in them.

#include <windows.h>

__attribute__((noinline)) void load_level(void) { Sleep(30); }

__attribute__((noinline)) void parse(volatile int *P) { *P = 1; }

__attribute__((noinline)) void frame(void) {
  load_level();
  parse((volatile int *)0);
}

int main(void) {
  frame();
  return 0;
}

// CHECK:      spiketrap: fatal exception 0xc0000005 (access violation) on thread {{[0-9]+}}; the reports follow, with the calls open on every thread
// CHECK:      calls open when this report was written
// CHECK:      open: thread main (tid {{[0-9]+}}): main {{.*}} > frame {{.*}} > parse {{.*}}
// OFF-NOT:    spiketrap: fatal
// OFF:        wine: Unhandled page fault
