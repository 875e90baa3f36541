// RUN: %clang %spiketrap_all -mllvm -spiketrap-late-probes=false -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t 2>&1 | FileCheck %s

// A function a thread's start routine (an ignored frame: a parent, never a
// spike) calls stays timed, however often: were step switched off like
// leaf, a spike below it would have no timed caller to be reported at (the
// worker's loop never returns in time, and is ignored) nor a frame to be
// sampled in. step's slow call is reported, with leaf, switched off after
// its first 512 calls, named by the samples or as its candidate. (Without
// late probes, which with -spiketrap-switch=flag would time leaf's slow
// path on their own.)

#include "../Inputs/spin.h"
#include <pthread.h>

static volatile unsigned Sink;
__attribute__((noinline)) void leaf(int I) {
  Sink = Sink + I;
  if (I == 4000)
    spin_ns(60000000);
}
__attribute__((noinline)) void step(int I) { leaf(I); }
__attribute__((noinline)) void *worker(void *A) {
  for (int I = 0; I < 5000; ++I)
    step(I);
  return A;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
  return 0;
}

// CHECK: spike: {{.*}} in step
// CHECK: leaf
// main, worker, all 5000 calls of step, leaf's first 512 and, timed again
// by step's spike, its last 999 (not if the spike was mostly its thread
// waiting for a CPU, on a loaded machine: 5514).
// CHECK: spiketrap: {{[0-9]+}} spikes, {{6513|5514}} instrumented calls
