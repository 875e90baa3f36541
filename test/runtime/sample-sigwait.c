// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: %run %t | FileCheck %s
// UNSUPPORTED: windows
// (Windows: POSIX signals and the sampling tick (no sampling on Windows yet).)

// A thread that blocks every signal and takes them with sigtimedwait, in a
// call open for long: the sampling signal is never sent to it (its mask is
// read first), so it never receives one, while another thread is sampled.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static int Stop, Got; // atomics: ThreadSanitizer runs this test too

__attribute__((noinline)) void serve_signals(void) {
  sigset_t All;
  sigfillset(&All);
  while (!__atomic_load_n(&Stop, __ATOMIC_RELAXED)) {
    spin_ns(2000000); // past half the threshold, and not waiting
    struct timespec T = {0, 10000000};
    if (sigtimedwait(&All, 0, &T) > 0)
      ++Got;
  }
}

static void *signalThread(void *Arg) {
  (void)Arg;
  serve_signals();
  return 0;
}

__attribute__((noinline)) void work(void) { spin_ns(300000000); }

int main(void) {
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_BLOCK, &All, 0); // inherited by the new thread
  pthread_t T;
  pthread_create(&T, 0, signalThread, 0);
  sigset_t None;
  sigemptyset(&None);
  pthread_sigmask(SIG_SETMASK, &None, 0);
  work();
  __atomic_store_n(&Stop, 1, __ATOMIC_RELAXED);
  pthread_join(T, 0);
  printf("signals taken by sigtimedwait: %d\n", Got);
  return 0;
}

// CHECK: signals taken by sigtimedwait: 0
