// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=FIBER < %t.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.out
// UNSUPPORTED: windows
// (Windows: ucontext fibers are POSIX's (Windows fibers are not followed yet).)

// Fibers: two contexts on their own stacks switch back and forth with
// swapcontext while instrumented calls are open in both. Frames on another
// stack cannot be told dead or alive by address, so some are dropped at a
// switch, but nothing crashes, no false spike appears, a spike that runs
// within one fiber between switches is reported, and once the fibers are
// done the main stack's spikes have their real stack.

#include "../Inputs/spin.h"
#include <stdlib.h>
#include <ucontext.h>

static ucontext_t MainCtx, FiberCtx;
__attribute__((noinline)) void fiber_hitch(void) { spin_ns(3000000); }
__attribute__((noinline)) void fiber_step(int I) {
  if (I == 5)
    fiber_hitch();
  swapcontext(&FiberCtx, &MainCtx); // yield with fiber_step open
}
__attribute__((noinline)) void fiber_main(void) {
  for (int I = 0; I < 10; ++I)
    fiber_step(I);
}
__attribute__((noinline)) void main_step(void) {
  swapcontext(&MainCtx, &FiberCtx); // resume the fiber with main_step open
}
__attribute__((noinline)) void after(void) { spin_ns(3000000); }

int main(void) {
  getcontext(&FiberCtx);
  FiberCtx.uc_stack.ss_sp = malloc(1 << 16);
  FiberCtx.uc_stack.ss_size = 1 << 16;
  FiberCtx.uc_link = &MainCtx;
  makecontext(&FiberCtx, fiber_main, 0);
  for (int I = 0; I < 11; ++I)
    main_step();
  after();
  return 0;
}

// FIBER: spike: {{.*}} in fiber_hitch
// FIBER: spiketrap: {{[0-9]+}} spikes, 25 instrumented calls

// AFTER: spike: {{.*}} in after
// AFTER-NEXT: thread main
// AFTER-NEXT: #0 main
// AFTER-NEXT: #1 after
