// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: grep -v 'idle call' %t.err > %t.spikes
// RUN: not grep wait_for_work %t.spikes
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// Waits to be woken (semaphores here; condition variables and futexes
// alike) are idle for a worker waiting for work, and a stall for a thread
// waiting for a result (docs/selection.md):
// - a pool worker's wait for its next job is idle: not a spike;
// - the main thread's frame waiting for the pool is a stall, however
//   little it ran before (a frame loop that only hands out work);
// - a frame thread (not the main thread) that ran a quarter of its
//   threshold before waiting for its helper waits for a result: a stall.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <semaphore.h>

static sem_t Work, Done, Help, Helped;

__attribute__((noinline)) void wait_for_work(void) { sem_wait(&Work); }

static void *pool_worker(void *Arg) {
  for (int I = 0; I < 3; ++I) {
    wait_for_work();
    spin_ns(50 * 1000000); // in the thread's start routine: no spike of its own
    sem_post(&Done);
  }
  return Arg;
}

__attribute__((noinline)) void main_frame(void) {
  sem_post(&Work);
  sem_wait(&Done);
}

static void *helper(void *Arg) {
  sem_wait(&Help);
  struct timespec T = {0, 100 * 1000000};
  nanosleep(&T, 0);
  sem_post(&Helped);
  return Arg;
}

__attribute__((noinline)) void thread_frame(void) {
  spin_ns(5 * 1000000); // over 1/20 of the threshold
  sem_post(&Help);
  sem_wait(&Helped);
}

static void *frame_thread(void *Arg) {
  thread_frame();
  return Arg;
}

int main(void) {
  sem_init(&Work, 0, 0);
  sem_init(&Done, 0, 0);
  sem_init(&Help, 0, 0);
  sem_init(&Helped, 0, 0);
  pthread_t Pool, Frame, Helper;
  pthread_create(&Pool, 0, pool_worker, 0);
  for (int I = 0; I < 3; ++I) {
    struct timespec T = {0, 100 * 1000000}; // the pool waits for work
    nanosleep(&T, 0);
    main_frame();
  }
  pthread_join(Pool, 0);
  pthread_create(&Helper, 0, helper, 0);
  pthread_create(&Frame, 0, frame_thread, 0);
  pthread_join(Frame, 0);
  pthread_join(Helper, 0);
  return 0;
}

// CHECK-DAG:  waited {{[0-9.]+}} {{m?s}} in sem_wait from main_frame
// CHECK-DAG:  waited {{[0-9.]+}} {{m?s}} in sem_wait from thread_frame
// CHECK:      spiketrap: {{[0-9]+}} idle call{{s?}} over {{its|their}} threshold not reported {{.*}}: {{(.*, )?}}wait_for_work {{[1-3]}} (worst {{.*}} in sem_wait)
