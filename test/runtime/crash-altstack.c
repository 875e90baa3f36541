// UNSUPPORTED: windows
// (Windows: no crash report on Windows yet (docs/windows.md).)
// Sanitizers handle SIGSEGV themselves: the runtime leaves it to them.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json not --crash %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: env SPIKETRAP_OPTIONS=report=none sh -c '%run %t 2>/dev/null; echo "status $?"' | FileCheck %s --check-prefix=STATUS

// A program that handles stack overflows gives its threads an alternate
// signal stack of the conventional SIGSTKSZ (8 KiB); the crash handler runs
// on it (SA_ONSTACK). The report needs more than that: it runs on a stack of
// its own, so nothing is written below the program's stack (here a 64 KiB
// guard, which a handler overflowing the 8 KiB would hit, losing the report
// and leaving its own frame in the core instead of the crash site).

#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>

#include "../Inputs/spin.h"

static int *volatile Null;

__attribute__((noinline)) void load_level(void) { spin_ns(3000000); }
__attribute__((noinline)) void crash_here(void) { *Null = 1; }
__attribute__((noinline)) void update(void) { crash_here(); }

// CHECK: spiketrap: fatal signal 11 (SIGSEGV) on thread {{[0-9]+}}; the reports follow
// CHECK: spike: {{.*}} in load_level
// CHECK: open: thread main (tid {{[0-9]+}}): main {{.*}} > update {{.*}} > crash_here
// CHECK: spiketrap: {{[0-9]+}} spikes,
// VALID: 1 valid, 0 invalid
// STATUS: status 139
int main(void) {
  const size_t Guard = 64 << 10, Size = 8192;
  char *Base = mmap(NULL, Guard + Size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Base == MAP_FAILED || mprotect(Base, Guard, PROT_NONE))
    return 1;
  stack_t Alt = {.ss_sp = Base + Guard, .ss_size = Size};
  if (sigaltstack(&Alt, NULL))
    return 1;
  for (int I = 0; I < 20; ++I)
    load_level();
  update();
  return 0;
}
