// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)

// Threads with a small alternate signal stack, as crash reporters and some
// language runtimes give every thread, with a guard page below it. The
// sampler's ticks must not land there: a signal frame (3.4 KiB with
// AVX-512) and an unwinding overflow 8 KiB. The stack is sized from this
// kernel's frame (AT_MINSIGSTKSZ) plus 3 KiB, right above the guard, so a
// tick that lands on it hits the guard on every machine, whatever its CPU.

#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../Inputs/spin.h"

__attribute__((noinline)) void load_level(void) { spin_ns(5000000); }

static size_t altSize(void) {
  size_t Frame = getauxval(AT_MINSIGSTKSZ);
  return (Frame > 2048 ? Frame : 2048) + 3072;
}

static void *worker(void *Arg) {
  size_t Page = (size_t)sysconf(_SC_PAGESIZE), Size = altSize();
  char *Base = mmap(NULL, Page + Size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Base == MAP_FAILED || mprotect(Base, Page, PROT_NONE))
    return Arg;
  stack_t Alt = {.ss_sp = Base + Page, .ss_size = Size};
  if (sigaltstack(&Alt, NULL))
    return Arg;
  for (int I = 0; I < 10; ++I)
    load_level();
  return NULL;
}

// CHECK: done 2
// CHECK: spike: {{.*}} in load_level
int main(void) {
  pthread_t T[2];
  int Done = 0;
  for (int I = 0; I < 2; ++I)
    pthread_create(&T[I], NULL, worker, NULL);
  for (int I = 0; I < 2; ++I) {
    void *R;
    pthread_join(T[I], &R);
    Done += R == NULL;
  }
  printf("done %d\n", Done);
  fflush(stdout);
  return 0;
}
