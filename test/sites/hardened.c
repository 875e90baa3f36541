// RUN: %clang %spiketrap_all %hardening -g -O2 %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// RUN: llvm-readelf --notes %rtlib | FileCheck %s --check-prefix=NOTES
// REQUIRES: switch-sites

// Code built with the distributions' hardening flags (x86: IBT and shadow
// stacks, -fcf-protection=full; AArch64: BTI and return-address signing,
// -mbranch-protection=standard; stack protector, _FORTIFY_SOURCE=3) stays
// valid when its sites are patched: each function keeps its landing pad
// ahead of the patchable instruction and its own right after it, where the
// trampoline's call lands; calls and returns pair as a shadow stack wants.
// The runtime is built with the same protection, so it does not strip the
// program's marking.

#include "../e2e/Inputs/spin.h"
#include "Inputs/site_state.h"
#include <stdio.h>
#include <string.h>

static volatile int Sink;
__attribute__((noinline)) int hot(const char *S) {
  char Buf[64];
  strcpy(Buf, S); // fortified, stack-protected
  return Sink += (int)strlen(Buf);
}
__attribute__((noinline)) void slow(void) {
  hot("x");
  spin_ns(5000000);
}
static int (*volatile Indirect)(const char *) = hot;

int main(void) {
  long Sum = 0;
  for (int I = 0; I < 5000; ++I)
    Sum += Indirect("hardened"); // an indirect call lands on the site
  printf("hot: %s\n", await_site(hot, "off"));
  for (int I = 0; I < 1000; ++I)
    Sum += Indirect("off");
  slow();
  printf("hot: %s, sum %ld\n", site_state(hot), Sum);
  fflush(stdout);
  return 0;
}

// CHECK: hot: off
// CHECK-NEXT: hot: timed, sum {{[0-9]+}}
// CHECK: spike: {{.*}} in slow

// NOTES: Properties: {{x86 feature: IBT, SHSTK|AArch64 feature: BTI, PAC}}
