// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms %run %t 2>&1 | FileCheck %s

// Threads named as a debugger would be told (winpthreads'
// pthread_setname_np raises 0x406D1388 with a THREADNAME_INFO, as MSVC
// programs do): by themselves, or by the thread that started them before
// their first hook. A thread never named has the program's name.
// winpthreads gives the THREADNAME_INFO the thread's id only once the
// thread runs (0 before: no name reaches anyone), so the creator waits.

#include <pthread.h>
#include <windows.h>

#include "../Inputs/spin.h"

static HANDLE Started, Named;

__attribute__((noinline)) void work(void) { spin_ns(20000000); }

static void *self(void *Arg) {
  (void)Arg;
  pthread_setname_np(pthread_self(), "renderer");
  work();
  return NULL;
}

static void *byCreator(void *Arg) {
  (void)Arg;
  SetEvent(Started);
  WaitForSingleObject(Named, INFINITE);
  work();
  return NULL;
}

int main(void) {
  pthread_t A, B;
  pthread_create(&A, NULL, self, NULL);
  pthread_join(A, NULL);
  Started = CreateEventA(NULL, TRUE, FALSE, NULL);
  Named = CreateEventA(NULL, TRUE, FALSE, NULL);
  pthread_create(&B, NULL, byCreator, NULL);
  WaitForSingleObject(Started, INFINITE);
  pthread_setname_np(B, "loader");
  SetEvent(Named);
  pthread_join(B, NULL);
  work();
  return 0;
}

// CHECK-DAG: thread renderer (tid [[#]])
// CHECK-DAG: thread loader (tid [[#]])
// CHECK-DAG: thread main (tid [[#]])
