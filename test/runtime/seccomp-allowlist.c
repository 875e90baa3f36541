// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap -O1 -g -pthread %s %rtlib -o %t
// RUN: %run %t prctl 2>&1 | FileCheck %s
// RUN: %run %t syscall 2>&1 | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=sample=0:adaptive=0 %run %t prctl 2>&1 | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=enabled=0 %run %t prctl 2>&1 | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=live_log=1:hang_after=2ms %run %t prctl 2>&1 | FileCheck --check-prefix=LIVE %s
// RUN: env SPIKETRAP_OPTIONS=live_log=1:hang_after=2ms %run %t tsync 2>&1 | FileCheck --check-prefix=LIVE %s
// UNSUPPORTED: emulated
// (qemu-user refuses seccomp filters (EINVAL))

// A program that sandboxes itself as OpenSSH does, with an allowlist of a
// few system calls (any other kills the process), runs as it would plain:
// from the filter on the runtime makes no system call of its own (no
// patch, no timer or signal, no /proc read, no report; before, it died of
// SIGSYS in mprotect, or at exit in rt_sigpending with sample=0:adaptive=0),
// on the runtime's threads either when the filter is every thread's
// (tsync: the live log's thread slept in nanosleep).

#include "../Inputs/seccomp.h"
#include "../Inputs/spin.h"
#include <stdio.h>

__attribute__((noinline)) int leaf(int I) { return I * 3 + 1; }
__attribute__((noinline)) void slow(void) { spin_ns(20000000); }

int main(int argc, char **argv) {
  (void)argc;
  printf("sandboxing\n");
  fflush(stdout);
  slow(); // a spike before: still no report under the filter
  if (allowFew(argv[1])) {
    perror("seccomp");
    return 1;
  }
  unsigned Sum = 0;
  for (int I = 0; I < 200000; ++I)
    Sum += leaf(I);
  slow();
  printf("done %u\n", Sum);
  return 0;
}

// CHECK:      sandboxing
// CHECK-NEXT: done {{[0-9]+}}
// CHECK-NOT:  {{.}}
// The first spike's lines may come before the filter, none after it.
// LIVE:       sandboxing
// LIVE:       done {{[0-9]+}}
// LIVE-NOT:   {{.}}
