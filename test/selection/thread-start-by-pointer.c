// RUN: %clang %spiketrap_all -g -O1 -pthread %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s --implicit-check-not="spike: {{.*}} in worker"

// A start routine the pass cannot see (passed to pthread_create through a
// variable, as libuv's uv_thread_create passes its threadpool's worker) is
// known at run time: the thread's first timed call, made at the top of its
// stack. Like one passed by name, it is the root of the thread's stacks,
// never a spike of its own; what spiked below it is reported under it.

#include "../Inputs/spin.h"
#include <pthread.h>

__attribute__((noinline)) void load_chunk(void) { spin_ns(3000000); }

void *worker(void *Arg) {
  spin_ns(2000000);
  load_chunk();
  return Arg;
}

void *(*volatile Start)(void *) = worker;

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, Start, 0);
  pthread_join(T, 0);
  return 0;
}

// CHECK: spike: {{.*}} in load_chunk
// CHECK: #0 worker ({{.*}}thread-start-by-pointer.c:15){{( .* ms > .*)?$}}
// CHECK: spiketrap: {{[0-9]+}} spikes
