// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user: thread CPU-clock timers never fire; its own signals)
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1 %run %t 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=TICKS < %t.err

// A daemon that blocks every signal in main and reads them from a signalfd,
// working between reads inside an open call (sampled: past half its
// threshold). The sampling signal stays unblocked (the program's
// sigprocmask is the runtime's), so a tick is handled as it comes and the
// signalfd never reads it: only the daemon's own SIGUSR1. The program reads
// its mask back as it set it.

#include "../Inputs/spin.h"
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/signalfd.h>
#include <unistd.h>

__attribute__((noinline)) int serve(int Fd) {
  int Foreign = 0;
  for (int I = 0; I < 100; ++I) {
    spin_ns(3000000);
    struct signalfd_siginfo Si;
    struct pollfd P = {Fd, POLLIN, 0};
    while (poll(&P, 1, 0) == 1 && read(Fd, &Si, sizeof(Si)) == sizeof(Si)) {
      if (Si.ssi_signo == SIGUSR1)
        printf("read SIGUSR1\n");
      else
        ++Foreign, printf("foreign signal %u, code %d\n", Si.ssi_signo,
                          Si.ssi_code);
    }
    if (I == 50)
      kill(getpid(), SIGUSR1);
  }
  return Foreign;
}

int main(void) {
  sigset_t All, Back;
  sigfillset(&All);
  sigprocmask(SIG_BLOCK, &All, 0);
  sigprocmask(SIG_BLOCK, 0, &Back);
  printf("mask reads back %s\n",
         sigismember(&Back, SIGRTMAX) == 1 ? "all blocked" : "changed");
  int Fd = signalfd(-1, &All, SFD_CLOEXEC);
  printf("%d foreign signals\n", serve(Fd));
  return 0;
}

// CHECK: mask reads back all blocked
// CHECK-NOT: foreign signal
// CHECK: read SIGUSR1
// CHECK-NOT: foreign signal
// CHECK: 0 foreign signals
// The ticks did come (300 ms of work): the samples name what they found.
// TICKS: watcher: {{.*}}; {{[1-9][0-9]*}} samples in {{[1-9][0-9]*}} ticks
