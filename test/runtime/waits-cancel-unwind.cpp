// REQUIRES: no-sanitizer
// RUN: %clangxx %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: %run %t | FileCheck %s
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A thread cancelled inside an interposed wait (read, a cancellation point)
// unwinds through the wrapper to the frames above it: their destructors and
// cleanup run. Without unwind entries for the wrapper, the unwinder would
// stop there and skip them (C cleanup handlers still run from glibc's list,
// C++ destructors do not).

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

static int Blocked[2];
static volatile int Ready;

struct Cleanup {
  ~Cleanup() { puts("destructor ran"); }
};

__attribute__((noinline)) void readForever() {
  char C;
  (void)!read(Blocked[0], &C, 1); // never returns: the thread is cancelled
}

__attribute__((noinline)) void *reader(void *) {
  Cleanup C;
  __atomic_store_n(&Ready, 1, __ATOMIC_RELEASE);
  readForever();
  return nullptr;
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (pipe(Blocked))
    return 1;
  pthread_t T;
  pthread_create(&T, nullptr, reader, nullptr);
  // A cancellation sent before the read acts when the read begins.
  while (!__atomic_load_n(&Ready, __ATOMIC_ACQUIRE))
    sched_yield();
  pthread_cancel(T);
  void *Ret = nullptr;
  pthread_join(T, &Ret);
  printf("cancelled: %d\n", Ret == PTHREAD_CANCELED);
  return 0;
}

// CHECK: destructor ran
// CHECK: cancelled: 1
