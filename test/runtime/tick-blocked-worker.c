// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user: thread CPU-clock timers never fire; its own signals)
// ALLOW_RETRIES: 2
// (beside busy loops the kernel delivers CPU-clock ticks late and few: a
// 60 ms call may get no sample; test/runtime/sample-library.c)
// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err | FileCheck %s
// RUN: python3 %S/Inputs/sampled.py %t.json | FileCheck %s --check-prefix=JSON

// A worker that blocks every signal after it registered (its first timed
// call) and then works in one long call: no tick stays pending (sigpending
// and sigtimedwait find none), and its samples still come (the spike is
// sampled; its culprit is its own code).

#include "../Inputs/spin.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

__attribute__((noinline)) void registered(void) {}

__attribute__((noinline)) void crunch(void) { spin_ns(60000000); }

__attribute__((noinline)) void job(void) { crunch(); }

static void *worker(void *Arg) {
  registered();
  sigset_t All, Pending;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, 0);
  job();
  sigpending(&Pending);
  struct timespec Zero = {0, 0};
  int Got = sigtimedwait(&All, 0, &Zero);
  printf("pending %s, sigtimedwait %d\n",
         sigismember(&Pending, SIGRTMAX) == 1 ? "SIGRTMAX" : "none", Got);
  return Arg;
}

int main(void) {
  pthread_t P;
  pthread_create(&P, 0, worker, 0);
  pthread_join(P, 0);
  return 0;
}

// CHECK: pending none, sigtimedwait -1
// JSON: worker > job > crunch | no culprit
