// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s --implicit-check-not=job_yield --implicit-check-not=resume_job < %t.out
// RUN: %clang %spiketrap_all -g -O0 -pthread %s %rtlib -o %t.O0
// RUN: %run %t.O0 > %t.O0.out 2>&1
// RUN: FileCheck %s --implicit-check-not=job_yield --implicit-check-not=resume_job < %t.O0.out
// UNSUPPORTED: windows
// (Windows: ucontext fibers are POSIX's (Windows fibers are not followed yet).)

// A job on a ucontext fiber does its cheap work for a frame and yields back
// to its scheduler with its frames open; the scheduler, on a thread of its
// own, waits in sem_wait for the next frame (a 25 ms sleep of the main
// thread). While the fiber is switched out its frames' clocks stop: neither
// the time it sat suspended nor the scheduler's wait is theirs, so the job
// never spikes but in the frame it really spins 100 ms; and the
// scheduler's resume_job does not take the fiber's run as its own.
// Thresholds of 10 ms (the job's) and 50 ms (resume_job's): before the
// clocks stopped, job_yield spiked every frame (25 ms, held up in the
// scheduler's sem_wait) and resume_job once (100 ms); a loaded machine's
// preemption of a microsecond call is no such spike.

#include "../Inputs/spin.h"
#include <spiketrap.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <ucontext.h>
#include <unistd.h>

enum { Frames = 20, Hitch = 10 };
static ucontext_t SchedCtx, FiberCtx;
static sem_t FrameReady;
static volatile unsigned Sink;

__attribute__((noinline)) void cheap(unsigned I) { Sink += I; }
__attribute__((noinline)) void job_hitch(void) { spin_ns(100000000); }
SPIKETRAP_THRESHOLD_MS(10) __attribute__((noinline)) void job_yield(void) {
  swapcontext(&FiberCtx, &SchedCtx);
}
// One frame's work, then a yield with job_frame and job_main open.
SPIKETRAP_THRESHOLD_MS(10) __attribute__((noinline)) void job_frame(int F) {
  for (unsigned I = 0; I < 500; ++I)
    cheap(I);
  if (F == Hitch)
    job_hitch();
  job_yield();
}
__attribute__((noinline)) void job_main(void) {
  for (int F = 0;; ++F)
    job_frame(F);
}

SPIKETRAP_THRESHOLD_MS(50) __attribute__((noinline)) void resume_job(void) {
  swapcontext(&SchedCtx, &FiberCtx);
}
__attribute__((noinline)) void *scheduler(void *Arg) {
  (void)Arg;
  getcontext(&FiberCtx);
  FiberCtx.uc_stack.ss_sp = malloc(1 << 17);
  FiberCtx.uc_stack.ss_size = 1 << 17;
  FiberCtx.uc_link = 0;
  makecontext(&FiberCtx, job_main, 0);
  for (int F = 0; F < Frames; ++F) {
    sem_wait(&FrameReady); // the host thread's own wait
    resume_job();
  }
  return 0;
}

int main(void) {
  sem_init(&FrameReady, 0, 0);
  pthread_t T;
  pthread_create(&T, 0, scheduler, 0);
  for (int F = 0; F < Frames; ++F) {
    usleep(25000);
    sem_post(&FrameReady);
  }
  pthread_join(T, 0);
  return 0;
}

// The one incident, with the fiber's stack: job_hitch, and job_frame,
// that spiked because of it.
// CHECK: spike: {{.*}} in job_hitch
// CHECK-NEXT: thread
// CHECK-NEXT: #0 job_main
// CHECK-NEXT: #1 job_frame
// CHECK-NEXT: #2 job_hitch
