// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=enabled=0 %run %t prctl | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=enabled=0 %run %t raw | FileCheck %s
// RUN: %run %t syscall 2>&1 | FileCheck %s
// RUN: %run %t raw 2>&1 | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=sample=0:adaptive=0 %run %t prctl 2>&1 | FileCheck %s
// UNSUPPORTED: emulated
// (qemu-user refuses seccomp filters (EINVAL))

// A program that sandboxes itself after start with a filter that kills
// the process for mprotect with PROT_EXEC (a W^X policy) runs as it would
// plain: the runtime patches no site from then on (before, with enabled=0,
// every function's first call made its site writable and died of SIGSYS)
// and writes no report at exit, whether the filter came through prctl,
// syscall(2) or inline assembly (found by prctl(PR_GET_SECCOMP)).

#include "../Inputs/seccomp.h"
#include "../Inputs/spin.h"
#include <stdio.h>

__attribute__((noinline)) int leaf(int I) { return I * 3 + 1; }
__attribute__((noinline)) void slow(void) { spin_ns(5000000); }

int main(int argc, char **argv) {
  (void)argc;
  printf("sandboxing\n");
  fflush(stdout);
  if (forbidWritableCode(argv[1])) {
    perror("seccomp");
    return 1;
  }
  unsigned Sum = 0;
  // Often called and short: adaptive mode switches it off (a patch).
  for (int I = 0; I < 200000; ++I)
    Sum += leaf(I);
  slow();
  printf("done %u\n", Sum);
  return 0;
}

// CHECK:      sandboxing
// CHECK-NEXT: done {{[0-9]+}}
// CHECK-NOT:  {{.}}
