// Sanitizers handle SIGSEGV themselves: the runtime leaves it to them.
// REQUIRES: no-sanitizer, core-dumps
// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env SPIKETRAP_OPTIONS=report=none not --crash sh -c 'cd %t.d && ulimit -c unlimited && exec %t'
// RUN: gdb -q -batch -ex bt %t %t.d/core* 2>&1 | FileCheck %s

// After the crash report the signal kills the process where it crashed: the
// core dump shows the crash site, not the handler. On the program's 8 KiB
// alternate signal stack the handler overflowed into the guard below it,
// and the core showed the report's frame instead.

#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>

static int *volatile Null;

__attribute__((noinline)) void crash_here(void) { *Null = 1; }

// CHECK: #0 {{.*}} in crash_here () at {{.*}}crash-core-site.c:[[@LINE-2]]
int main(void) {
  const size_t Guard = 64 << 10, Size = 8192;
  char *Base = mmap(NULL, Guard + Size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Base == MAP_FAILED || mprotect(Base, Guard, PROT_NONE))
    return 1;
  stack_t Alt = {.ss_sp = Base + Guard, .ss_size = Size};
  if (sigaltstack(&Alt, NULL))
    return 1;
  crash_here();
  return 0;
}
