// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: PTHREAD_STACK_MIN and glibc's thread stacks.)
// (a sanitizer's own thread-local state is not what this checks)
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %run %t | FileCheck %s

// A thread made with the smallest stack POSIX allows (PTHREAD_STACK_MIN:
// 16 KiB with glibc on x86-64) starts and runs timed calls: glibc takes the
// static TLS out of each thread's stack, and the runtime keeps little there
// (its frames are mapped when the thread registers). With 15 KiB of TLS,
// pthread_create failed with EINVAL (libuv's thread_stack_size_explicit).

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) int depth(int N) {
  volatile int Pad[8] = {N};
  return N ? depth(N - 1) + Pad[0] : 0;
}

static void *run(void *Arg) {
  *(int *)Arg = depth(20);
  return 0;
}

int main(void) {
  pthread_attr_t A;
  pthread_attr_init(&A);
  pthread_attr_setstacksize(&A, PTHREAD_STACK_MIN);
  pthread_t T;
  int Sum = -1;
  int R = pthread_create(&T, &A, run, &Sum);
  if (R == 0)
    pthread_join(T, 0);
  printf("create: %s, sum %d\n", R ? strerror(R) : "ok", Sum);
  return 0;
}

// CHECK: create: ok, sum 210
