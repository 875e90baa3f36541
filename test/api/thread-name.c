// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -lpthread -o %t
// RUN: %run %t 2>&1 | FileCheck %s

// A thread named through the API is reported by that name, whatever the
// kernel calls it.

#include "../Inputs/spin.h"
#include "spiketrap.h"
#include <pthread.h>

__attribute__((noinline)) void work(void) { spin_ns(5000000); }

static void *loader(void *Arg) {
  (void)Arg;
  SPIKETRAP_SET_THREAD_NAME("AsyncLoader");
  work();
  return 0;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, loader, 0);
  pthread_join(T, 0);
  return 0;
}

// CHECK: spike: {{[0-9.]+ m?s}} in work
// CHECK-NEXT: thread AsyncLoader (tid
