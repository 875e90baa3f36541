// Shared by the tests of every folder (lit looks for no tests in Inputs/).
// A busy thread on the calling thread's one CPU: the thread must take turns
// with it (preempted while it computes). Build with -pthread.
#ifndef SHARED_CPU_H
#define SHARED_CPU_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>

static int HogStop; // atomic: the hog reads it on another thread
static pthread_t Hog;

static void *hogLoop(void *A) {
  while (!__atomic_load_n(&HogStop, __ATOMIC_RELAXED))
    ;
  return A;
}

// Pins the calling thread to the first CPU this process may use, and
// starts the hog there (a new thread inherits the affinity).
static void startHogOnThisCpu(void) {
  cpu_set_t S;
  sched_getaffinity(0, sizeof S, &S);
  int C = 0;
  while (!CPU_ISSET(C, &S))
    ++C;
  CPU_ZERO(&S);
  CPU_SET(C, &S);
  sched_setaffinity(0, sizeof S, &S);
  pthread_create(&Hog, 0, hogLoop, 0);
}

static void stopHog(void) {
  __atomic_store_n(&HogStop, 1, __ATOMIC_RELAXED);
  pthread_join(Hog, 0);
}
#endif
