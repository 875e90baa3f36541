// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=1ms %run %t 2>/dev/null | FileCheck %s
// REQUIRES: switch-sites

// Sites are rewritten while other threads run them: four threads call 64
// small functions in turn while adaptive mode switches them off (each after
// its first 512 calls) and a fifth thread's spikes switch them back on (its
// own time, with the functions as untimed callees). Every call must still
// compute its result: the sum over all calls is exact.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <stdio.h>

#define F(N)                                                                   \
  __attribute__((noinline)) long f##N(long X) { return X * (N + 1) + N; }
#define F8(N) F(N##0) F(N##1) F(N##2) F(N##3) F(N##4) F(N##5) F(N##6) F(N##7)
F8(1) F8(2) F8(3) F8(4) F8(5) F8(6) F8(7) F8(8)
#define P(N) f##N,
#define P8(N) P(N##0) P(N##1) P(N##2) P(N##3) P(N##4) P(N##5) P(N##6) P(N##7)
static long (*const Fns[64])(long) = {P8(1) P8(2) P8(3) P8(4) P8(5) P8(6)
                                          P8(7) P8(8)};
#define C(N) Sum += f##N(X);
#define C8(N) C(N##0) C(N##1) C(N##2) C(N##3) C(N##4) C(N##5) C(N##6) C(N##7)

enum { Rounds = 30000 };
static int Done; // atomic: ThreadSanitizer runs this test too

static void *work(void *Arg) {
  long Sum = 0;
  for (long R = 0; R < Rounds; ++R)
    for (int I = 0; I < 64; ++I)
      Sum += Fns[I](R);
  *(long *)Arg = Sum;
  return 0;
}

// Calls each directly (a callee table) and spikes in its own time.
__attribute__((noinline)) long rearm(long X) {
  long Sum = 0;
  C8(1) C8(2) C8(3) C8(4) C8(5) C8(6) C8(7) C8(8)
  spin_ns(2000000);
  return Sum;
}

static void *spiker(void *Arg) {
  long Sum = 0;
  while (!__atomic_load_n(&Done, __ATOMIC_RELAXED))
    Sum += rearm(1);
  *(long *)Arg = Sum;
  return 0;
}

int main(void) {
  pthread_t T[5];
  long Sums[5];
  for (int I = 0; I < 4; ++I)
    pthread_create(&T[I], 0, work, &Sums[I]);
  pthread_create(&T[4], 0, spiker, &Sums[4]);
  for (int I = 0; I < 4; ++I)
    pthread_join(T[I], 0);
  __atomic_store_n(&Done, 1, __ATOMIC_RELAXED);
  pthread_join(T[4], 0);
  long Want = 0;
  for (long R = 0; R < Rounds; ++R)
    for (int I = 0; I < 64; ++I)
      Want += Fns[I](R);
  int Ok = 1;
  for (int I = 0; I < 4; ++I)
    Ok &= Sums[I] == Want;
  printf("sums %s\n", Ok ? "exact" : "WRONG");
  return 0;
}

// CHECK: sums exact
