// RUN: %clang %spiketrap_all -O2 -pthread %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: pthread_setname_np is not seen on Windows yet.)

// A thread renamed by another thread after its first hook call is reported
// by its new name (the runtime reads names at registration and follows
// pthread_setname_np, never inside a spike's time).

#define _GNU_SOURCE
#include "../Inputs/spin.h"
#include <pthread.h>

static volatile int Renamed;

__attribute__((noinline)) void first_call(void) { spin_ns(1000); }
__attribute__((noinline)) void renamed_spike(void) { spin_ns(3000000); }
__attribute__((noinline)) void *worker(void *Arg) {
  first_call(); // registered here, under the creator's name
  while (!__atomic_load_n(&Renamed, __ATOMIC_ACQUIRE))
    ;
  renamed_spike();
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  spin_ns(20000000); // let the worker register first
  pthread_setname_np(T, "decoder-7");
  __atomic_store_n(&Renamed, 1, __ATOMIC_RELEASE);
  pthread_join(T, 0);
  return 0;
}

// CHECK: spike: {{.*}} in renamed_spike
// CHECK: thread decoder-7 (tid
