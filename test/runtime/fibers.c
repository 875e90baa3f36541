// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=RESUMED < %t.out
// RUN: FileCheck %s --check-prefix=ABOVE < %t.out
// RUN: FileCheck %s --check-prefix=LINK < %t.out
// UNSUPPORTED: windows
// (Windows: ucontext fibers are POSIX's (Windows fibers are not followed yet).)

// Each ucontext keeps its own stack of open calls (runtime/
// spiketrap_fibers.cpp): a fiber that yields with calls open finds them
// again when resumed, so a spike after the resume has the fiber's stack; a
// fiber whose stack lies above its thread's (mapped before the thread's)
// does not cost the thread its open calls; and when a fiber's function
// returns to its uc_link, the resumed context's calls are its own again,
// without the fiber's run: a context's clocks stop while it is switched
// out (resume_fiber spikes by its own 3 ms, the fiber's are not its).
// Static programs too (the pass sends the calls to the runtime; nothing is
// interposed by name).

#include "../Inputs/spin.h"
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <ucontext.h>

static ucontext_t SchedCtx, FiberCtx;

// The fiber yields with job_step open, then spikes once resumed.
__attribute__((noinline)) void job_step(void) {
  swapcontext(&FiberCtx, &SchedCtx);
  spin_ns(3000000);
}
__attribute__((noinline)) void job_main(void) { job_step(); }

__attribute__((noinline)) void resume_fiber(int Spin) {
  swapcontext(&SchedCtx, &FiberCtx);
  if (Spin)
    spin_ns(3000000);
}
__attribute__((noinline)) void scheduler_after(void) { spin_ns(3000000); }

// On a thread whose stack lies below the fiber's.
__attribute__((noinline)) void *scheduler(void *Stack) {
  getcontext(&FiberCtx);
  FiberCtx.uc_stack.ss_sp = Stack;
  FiberCtx.uc_stack.ss_size = 1 << 16;
  FiberCtx.uc_link = &SchedCtx;
  makecontext(&FiberCtx, job_main, 0);
  resume_fiber(0); // job_main runs to its yield
  resume_fiber(1); // job_step spikes, job_main returns to uc_link
  scheduler_after();
  return 0;
}

int main(void) {
  void *Stack = mmap(0, 1 << 16, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pthread_t T;
  pthread_create(&T, 0, scheduler, Stack);
  pthread_join(T, 0);
  return 0;
}

// RESUMED: spike: {{.*}} in job_step
// RESUMED-NEXT: thread {{.*}}
// RESUMED-NEXT: #0 job_main
// RESUMED-NEXT: #1 job_step

// ABOVE: spike: {{.*}} in scheduler_after
// ABOVE-NEXT: thread {{.*}}
// ABOVE-NEXT: #0 scheduler
// ABOVE-NEXT: #1 scheduler_after

// LINK: spike: {{.*}} in resume_fiber
// LINK-NEXT: thread {{.*}}
// LINK-NEXT: #0 scheduler
// LINK-NEXT: #1 resume_fiber
