// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1 %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: sanitize-address, sanitize-thread, windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)
// (a sanitizer's frames overflow this small stack, plain or
// instrumented)

// A program's handler that runs long on its alternate stack (SA_ONSTACK),
// a stack with room for its own signal frame and 6 KiB (sized from this
// kernel's frame, right above a guard page), enough for the handler and
// the hooks of its instrumented calls but not for a second frame: the
// sampler's signal is held back while it runs (no room for a second frame
// and an unwinding), so the program does not die of a stack overflow in
// its own handler.

#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../Inputs/spin.h"

static volatile int Handled;

__attribute__((noinline)) void slow_in_handler(void) { spin_ns(20000000); }

static void onUsr1(int Sig) {
  (void)Sig;
  slow_in_handler();
  Handled = 1;
}

// CHECK: handled 1
// CHECK: spike: {{.*}} in slow_in_handler
int main(void) {
  size_t Frame = getauxval(AT_MINSIGSTKSZ);
  size_t Page = (size_t)sysconf(_SC_PAGESIZE);
  size_t Size = (Frame > 2048 ? Frame : 2048) + 6144;
  char *Base = mmap(NULL, Page + Size + Page, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Base == MAP_FAILED || mprotect(Base, Page, PROT_NONE))
    return 1;
  stack_t Alt = {.ss_sp = Base + Page, .ss_size = Size};
  if (sigaltstack(&Alt, NULL))
    return 1;
  struct sigaction A = {0};
  A.sa_handler = onUsr1;
  A.sa_flags = SA_ONSTACK;
  sigaction(SIGUSR1, &A, NULL);
  raise(SIGUSR1);
  printf("handled %d\n", Handled);
  fflush(stdout);
  return 0;
}
