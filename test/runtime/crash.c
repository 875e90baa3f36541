// UNSUPPORTED: windows
// (Windows: no crash report on Windows yet (docs/windows.md).)
// Sanitizers handle SIGSEGV themselves: the runtime leaves it to them.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json not --crash %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: env SPIKETRAP_OPTIONS=report=none sh -c '%run %t 2>/dev/null; echo "status $?"' | FileCheck %s --check-prefix=STATUS
// RUN: env SPIKETRAP_OPTIONS=crash_report=0 not --crash %run %t 2>&1 | FileCheck %s --check-prefix=OFF

// A fatal signal the program leaves at its default action writes the
// reports, with the calls open on every thread (the crashing thread's say
// where it crashed), and then kills the process as it would have.

#include "../Inputs/spin.h"
#include "Inputs/blocked_worker.h"

static int *volatile Null;

__attribute__((noinline)) void load_level(void) { spin_ns(30000000); }
__attribute__((noinline)) void crash_here(void) { *Null = 1; }
__attribute__((noinline)) void update(void) { crash_here(); }

// CHECK: spiketrap: fatal signal 11 (SIGSEGV) on thread {{[0-9]+}}; the reports follow, with the calls open on every thread
// CHECK: spike: {{.*}} in load_level
// CHECK: calls open when this report was written
// CHECK-DAG: open: thread main (tid {{[0-9]+}}): main {{.*}} > update {{.*}} > crash_here
// CHECK-DAG: open: thread {{.*}}: worker_main {{.*}} > wait_forever
// VALID: 1 valid, 0 invalid
// It still dies of SIGSEGV: 128 + 11 under a shell.
// STATUS: status 139
// OFF-NOT: spiketrap
int main(void) {
  if (start_blocked_worker())
    return 1;
  load_level();
  update();
  return 0;
}
