// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user's thread timers never fire)
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=2ms %run %t 2>&1 | FileCheck %s

// A frame loop that works a little (a worker: 40 us a frame) and sleeps the
// rest of each frame in a read (of a timerfd: a wait of the runtime's)
// keeps its ticks while it works (its CPU clock's timer runs on through
// the waits, firing only as CPU time adds up). Its one-off spike in untimed
// code (memset of a fresh mapping: page faults, ~20 ms) is sampled and
// named.

#include "../Inputs/spin.h"
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <unistd.h>

static void sleep_frame(int Fd) {
  struct itimerspec Its = {{0, 0}, {0, 500 * 1000}};
  uint64_t N;
  timerfd_settime(Fd, 0, &Its, 0);
  if (read(Fd, &N, sizeof(N)) != sizeof(N))
    _exit(1);
}

__attribute__((noinline)) void load_level(void) {
  size_t Size = 48 << 20;
  char *P = mmap(0, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  memset(P, 1, Size);
  munmap(P, Size);
}

__attribute__((noinline)) void frame(int N) {
  spin_ns(40000);
  if (N == 300)
    load_level();
}

__attribute__((noinline)) void run_frames(void) {
  int Fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  for (int N = 0; N < 400; ++N) {
    frame(N);
    sleep_frame(Fd);
  }
}

int main(void) {
  run_frames();
  return 0;
}

// CHECK:      spike: {{.*}} in load_level
// CHECK:        sampled: [[#]] of [[#]] samples agree, the culprit ran for about
// CHECK-NEXT:       ~ {{.*}}memset
