// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_idle=1 %run %t 2>&1 | FileCheck %s

// A stack that spiked on several threads is shown once, with the other
// threads it spiked on listed once each (each thread spikes twice here).

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>

__attribute__((noinline)) void slow(void) {
  struct timespec T = {0, 3000000}; // 3 ms: over the 1 ms threshold
  nanosleep(&T, NULL);
}

static void *worker(void *Name) {
  pthread_setname_np(pthread_self(), (const char *)Name);
  slow();
  slow();
  return NULL;
}

int main(void) {
  static const char *Names[] = {"w0", "w1", "w2", "w3"};
  pthread_t T[4];
  // One after the other: each thread's name is set before it spikes.
  for (int I = 0; I < 4; ++I) {
    pthread_create(&T[I], NULL, worker, (void *)Names[I]);
    pthread_join(T[I], NULL);
  }
  return 0;
}

// CHECK: spike: {{.*}} in slow
// CHECK-NEXT: thread w{{[0-3]}} (tid {{[0-9]+}}), {{.*}}; this stack spiked 8 times
// CHECK: also on thread w{{[0-3]}} (tid {{[0-9]+}}), thread w{{[0-3]}} (tid {{[0-9]+}}), thread w{{[0-3]}} (tid {{[0-9]+}}){{$}}

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
