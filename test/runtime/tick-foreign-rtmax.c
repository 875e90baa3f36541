// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user: thread CPU-clock timers never fire; its own signals)
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: not --crash %run %t > %t.out
// RUN: FileCheck %s < %t.out

// kill -RTMAX from another process: the program left that signal at its
// default action, which ends the process, as it does without the runtime
// (the sampler's handler sees no cookie of its timers: not ours).

#include "../Inputs/spin.h"
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void work(void) {
  for (int I = 0; I < 200; ++I) // 2 s at most
    spin_ns(10000000);
}

int main(void) {
  pid_t Parent = getpid();
  printf("start\n");
  fflush(stdout);
  if (fork() == 0) {
    usleep(100000);
    kill(Parent, SIGRTMAX);
    _exit(0);
  }
  work();
  printf("survived SIGRTMAX\n");
  return 0;
}

// CHECK: start
// CHECK-NOT: survived
