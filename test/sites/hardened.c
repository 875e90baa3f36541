// RUN: %clang %spiketrap_all %hardening -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t 2>&1 | FileCheck %s
// RUN: llvm-readelf --notes %rtlib | FileCheck %s --check-prefix=NOTES
// REQUIRES: switch-sites

// Code built with the distributions' hardening flags (x86: IBT and shadow
// stacks, -fcf-protection=full; AArch64: BTI and return-address signing,
// -mbranch-protection=standard; stack protector, _FORTIFY_SOURCE=3) stays
// valid when its sites are patched: each function keeps its landing pad
// ahead of the patchable instruction and its own right after it, where the
// trampoline's call lands; calls and returns pair as a shadow stack wants.
// The runtime is built with the same protection, so it does not strip the
// program's marking. (100 ms: no call of hot comes near it on a loaded or
// emulated machine; slow's own threshold is 1 ms.)

#include "../Inputs/spin.h"
#include "Inputs/site_state.h"
#include "spiketrap.h"
#include <stdio.h>
#include <string.h>

static volatile int Sink;
__attribute__((noinline)) int hot(const char *S) {
  char Buf[64];
  strcpy(Buf, S); // fortified, stack-protected
  return Sink += (int)strlen(Buf);
}
SPIKETRAP_THRESHOLD_MS(1) __attribute__((noinline)) void slow(void) {
  hot("x");
  spin_ns(5000000);
}
static int (*volatile Indirect)(const char *) = hot;

static long Sum;
static void callHot(int I) {
  Sum += Indirect(I & 1 ? "hardened" : "off"); // lands on the site
}

int main(void) {
  printf("hot: %s\n", call_until_off(hot, callHot));
  for (int I = 0; I < 1000; ++I)
    callHot(I);
  // A spike judged preempted (a loaded machine) switches nothing on.
  for (int I = 0; I < 50 && strcmp(site_state(hot), "timed"); ++I)
    slow();
  printf("hot: %s, sum %ld\n", site_state(hot), Sum);
  fflush(stdout);
  return 0;
}

// CHECK: hot: off
// CHECK-NEXT: hot: timed, sum {{[0-9]+}}
// CHECK: spike: {{.*}} in slow

// NOTES: Properties: {{x86 feature: IBT, SHSTK|aarch64 feature: BTI, PAC}}
