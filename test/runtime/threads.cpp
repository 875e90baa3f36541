// RUN: %clangxx %spiketrap_all -g -O0 -pthread %s %rtlib -o %t.O0
// RUN: %run %t.O0 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap_all -g -O2 -pthread %s %rtlib -o %t.O2
// RUN: %run %t.O2 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: pthread_setname_np is not seen on Windows yet.)

// Many threads at once, each with its own stack: each thread's spike is
// reported under its pthread_setname_np name with its own caller chain, and
// the main thread is named as such.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) void worker_spike(int Id) { spin_ns(3000000 + Id); }
__attribute__((noinline)) void *worker(void *Arg) {
  int Id = int(reinterpret_cast<intptr_t>(Arg));
  char Name[16];
  snprintf(Name, sizeof(Name), "worker-%d", Id);
  pthread_setname_np(pthread_self(), Name);
  worker_spike(Id);
  return nullptr;
}
__attribute__((noinline)) void main_spike() { spin_ns(3000000); }

int main() {
  pthread_t T[8];
  for (long I = 0; I < 8; ++I)
    pthread_create(&T[I], nullptr, worker, reinterpret_cast<void *>(I));
  main_spike();
  for (pthread_t &Thread : T)
    pthread_join(Thread, nullptr);
}

// CHECK-DAG: thread worker-0 (tid
// CHECK-DAG: thread worker-1 (tid
// CHECK-DAG: thread worker-2 (tid
// CHECK-DAG: thread worker-3 (tid
// CHECK-DAG: thread worker-4 (tid
// CHECK-DAG: thread worker-5 (tid
// CHECK-DAG: thread worker-6 (tid
// CHECK-DAG: thread worker-7 (tid
// CHECK-DAG: thread main (tid
// CHECK: spiketrap: {{[0-9]+}} spikes, 18 instrumented calls, 9 threads, 0 dropped records
