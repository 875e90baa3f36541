// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=patch=0:verbosity=1 %run %t launch 2>&1 | FileCheck %s
// REQUIRES: switch-sites, no-sanitizer
// UNSUPPORTED: emulated
// (qemu-user does not pass seccomp filters to the kernel.)

// patch=0: the runtime never rewrites code, not even to find out whether it
// may (start-up's probe makes a page of its own writable). For a program
// started under a filter that kills the process for mprotect with
// PROT_EXEC (systemd's SystemCallFilter= kills by default): it runs and
// reports; switched-off functions pass through the trampoline.

#include "../Inputs/seccomp.h"
#include "../Inputs/spin.h"
#include <stdio.h>

static volatile int Sink;
__attribute__((noinline)) int hot(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += X * I;
  return Sink;
}
__attribute__((noinline)) void slow(void) { spin_ns(5000000); }
// hot's caller: main's callees stay timed (docs/selection.md).
__attribute__((noinline)) long calls(void) {
  long Sum = 0;
  for (int I = 0; I < 20000; ++I)
    Sum += hot(I);
  return Sum;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && !strcmp(Argv[1], "launch")) {
    if (forbidWritableCode("prctl"))
      return 1;
    execl("/proc/self/exe", Argv[0], "run", (char *)0);
    return 1;
  }
  long Sum = calls();
  slow();
  printf("sum %ld\n", Sum);
  fflush(stdout);
  return 0;
}

// CHECK: sum {{[0-9]+}}
// CHECK: spike: {{.*}} in slow
// CHECK: sites: 0 rewritten in 0 batches (0 pages made writable), 0 requests dropped; patching off (patch=0)
