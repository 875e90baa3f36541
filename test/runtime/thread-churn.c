// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=adaptive=0 %run %t 2>&1 | FileCheck %s

// Threads that start and exit by the thousand: every call of every thread
// is counted after the thread is gone (none lost, no slot leaked), and the
// spikes of threads that have exited are still reported.

#include "../Inputs/spin.h"
#include <pthread.h>

__attribute__((noinline)) void rare_hitch(void) { spin_ns(2000000); }
__attribute__((noinline)) int step(int I) { return I * 3 + 1; }
__attribute__((noinline)) void *worker(void *Arg) {
  long Id = (long)Arg;
  int Acc = 0;
  for (int I = 0; I < 10; ++I)
    Acc += step(I);
  if (Id % 500 == 0)
    rare_hitch();
  return (void *)(long)Acc;
}

int main(void) {
  enum { Batch = 50, Total = 2000 };
  for (long B = 0; B < Total; B += Batch) {
    pthread_t T[Batch];
    for (long I = 0; I < Batch; ++I)
      pthread_create(&T[I], 0, worker, (void *)(B + I));
    for (long I = 0; I < Batch; ++I)
      pthread_join(T[I], 0);
  }
  return 0;
}

// 2000 workers x (1 + 10 steps) + 4 hitches + main.
// CHECK: spike: {{.*}} in rare_hitch ({{.*}}thread-churn.c:11)
// CHECK-NEXT: thread thread-churn.c{{.*}} (tid {{[0-9]+}}), {{.*}}; this stack spiked 4 times
// CHECK-NEXT: #0 worker
// CHECK-NEXT: #1 rare_hitch
// CHECK: spiketrap: {{[0-9]+}} spikes, 22005 instrumented calls, 2001 threads, 0 dropped records

// UNSUPPORTED: emulated && !windows
// (under qemu-user the kernel's name of every thread is qemu's own.)
