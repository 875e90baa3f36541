// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:verbosity=1 %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// The readiness waits that take a signal mask (epoll_pwait, as libuv's loop
// and Node wait; epoll_pwait2; pselect) are idle, as poll and epoll_wait
// are: a loop's turn that only waited in one is no spike. (Its own work
// takes microseconds: a 10 ms threshold leaves a loaded machine room.)

#include <errno.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>

static struct timespec Ts = {0, 60 * 1000 * 1000};

__attribute__((noinline)) int turn_epoll_pwait(int Ep, sigset_t *Mask) {
  struct epoll_event E;
  return epoll_pwait(Ep, &E, 1, 60, Mask);
}

__attribute__((noinline)) int turn_epoll_pwait2(int Ep, sigset_t *Mask) {
  struct epoll_event E;
  int R = epoll_pwait2(Ep, &E, 1, &Ts, Mask);
  // (A kernel before 5.11 has no epoll_pwait2: the same wait another way.)
  return R < 0 && errno == ENOSYS ? epoll_pwait(Ep, &E, 1, 60, Mask) : R;
}

__attribute__((noinline)) int turn_pselect(sigset_t *Mask) {
  return pselect(0, 0, 0, 0, &Ts, Mask);
}

int main(void) {
  int Ep = epoll_create1(0);
  sigset_t Mask;
  sigemptyset(&Mask);
  return Ep < 0 || turn_epoll_pwait(Ep, &Mask) || turn_epoll_pwait2(Ep, 0) ||
         turn_pselect(&Mask);
}

// CHECK-NOT: spike:
// CHECK: 3 idle calls over their threshold not reported
// CHECK-DAG: turn_epoll_pwait 1 (worst {{[0-9.]+}} ms in epoll_pwait)
// CHECK-DAG: turn_epoll_pwait2 1 (worst {{[0-9.]+}} ms in epoll_pwait{{2?}})
// CHECK-DAG: turn_pselect 1 (worst {{[0-9.]+}} ms in pselect)
