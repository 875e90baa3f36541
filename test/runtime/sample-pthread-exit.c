// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: timeout 60 %run %t | FileCheck %s
// UNSUPPORTED: sanitize-thread, emulated
// (ThreadSanitizer's own background thread, and qemu-user's, keep such a
// process alive, instrumented or not)

// main ends with pthread_exit while a worker runs; when the worker returns,
// the process exits (the C library calls exit(0) after the last thread),
// although the runtime's watcher thread is still there.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) void work(void) { spin_ns(20000000); }

static void *worker(void *Arg) {
  (void)Arg;
  work();
  printf("worker done\n");
  fflush(stdout);
  return 0;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_exit(0);
}

// CHECK: worker done
