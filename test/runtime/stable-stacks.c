// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.1.json %run %t 2>/dev/null
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.2.json %run %t 2>/dev/null
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.3.json %run %t 2>/dev/null
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:report_json=%t.4.json %run %t 2>/dev/null
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:report_json=%t.5.json %run %t 2>/dev/null
// RUN: python3 %S/Inputs/stacks.py %t.1.json %t.2.json %t.3.json %t.4.json %t.5.json | FileCheck %s
// UNSUPPORTED: windows
// (Windows: no sampling on Windows yet: the frames between timed levels come from samples and unwinding.)

// The same incident gives the same stack in every run, so a fleet can group
// it across runs: the frames between timed levels come from the spike's
// exit (its callers are on the stack then), not from whether a sample
// happened to see them (runs with sample=0: none can). Two incidents, on
// two threads: a slow call under two functions adaptive mode switched off,
// and a comparator's rare slow call under the C library's qsort (code
// built without the plugin, named by its symbols or by offset in its file).

#include "../Inputs/spin.h"
#include <pthread.h>
#include <stdlib.h>

volatile int Sink;

__attribute__((noinline)) void rebuild(int I) { // timed: called once
  spin_ns(60000000);
  Sink += I;
}

__attribute__((noinline)) int fill(int I) {
  if (I == 150000) // long after the switch-off (512 calls)
    rebuild(I);
  return I & 7;
}

__attribute__((noinline)) int lookup(int I) {
  int S = 0;
  for (int K = 0; K < 4; ++K)
    S += (I ^ K) & 3;
  return S + fill(I);
}

__attribute__((noinline)) void frame(int N) {
  for (int I = 0; I < 1000; ++I)
    Sink += lookup(N * 1000 + I);
}

__attribute__((noinline)) void log_slow_compare(int A) { // timed: called once
  spin_ns(60000000);
  Sink += A;
}

static int Compares;

__attribute__((noinline)) int by_value(const void *A, const void *B) {
  int X = *(const int *)A, Y = *(const int *)B;
  if (++Compares == 20000) // long after the switch-off
    log_slow_compare(X);
  return (X > Y) - (X < Y);
}

__attribute__((noinline)) void sort_job(int *V, int N) {
  qsort(V, (size_t)N, sizeof(int), by_value);
}

static void *worker(void *Arg) {
  (void)Arg;
  static int V[4096];
  for (int I = 0; I < 4096; ++I)
    V[I] = (I * 7919) % 4096;
  sort_job(V, 4096);
  return 0;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
  for (int N = 0; N < 200; ++N)
    frame(N);
  return 0;
}

// CHECK:      5 runs, 2 distinct stacks:
// CHECK-NEXT:   5 x frame > ~lookup > ~fill > rebuild
// CHECK-NEXT:   5 x worker > sort_job > {{(~__interceptor_[a-z_]+ [^>]*> )*}}~qsort_r [libc.so.6] > {{.*}} > ~by_value > log_slow_compare
// CHECK-EMPTY:
