// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: timeout -s KILL 60 %run %t | FileCheck %s
// UNSUPPORTED: sanitize-thread, sanitize-address, emulated
// (ThreadSanitizer's own background thread, and qemu-user's, keep such a
// process alive, instrumented or not; LeakSanitizer reads /proc/PID/task
// at exit, which this test takes away)

// main ends with pthread_exit, its descriptor table full (RLIMIT_NOFILE):
// when the worker returns, the process exits, as the C library makes it
// without the runtime. The watcher learns that only the runtime's threads
// are left from /proc/self/stat, read by the runtime's reader thread in a
// descriptor table of its own (before, the watcher's open failed with
// EMFILE, and the process, the watcher its last thread, ran until killed,
// ignoring SIGTERM).

#include "../Inputs/spin.h"
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>

__attribute__((noinline)) void work(void) { spin_ns(20000000); }

static void *worker(void *Arg) {
  (void)Arg;
  work();
  printf("worker done\n");
  fflush(stdout);
  return 0;
}

int main(void) {
  struct rlimit L = {16, 16};
  if (setrlimit(RLIMIT_NOFILE, &L))
    return 1;
  while (open("/dev/null", O_RDONLY) >= 0) {
  }
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_exit(0);
}

// CHECK: worker done
