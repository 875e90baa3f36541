// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=LATER
// UNSUPPORTED: windows
// (Windows: POSIX signal handlers (the C runtime's signal() is a plain call on Windows).)

// A handler that leaves by siglongjmp never returns to its trampoline: the
// frames it jumped over (the interrupted ones and its own) are closed at the
// next hook (stuck ran over its threshold: a spike, marked as left by a
// longjmp), and later spikes are not marked as in a signal handler.

#include "../Inputs/spin.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/time.h>

static sigjmp_buf Back;
__attribute__((noinline)) void escape(void) { siglongjmp(Back, 1); }
__attribute__((noinline)) void on_alarm(int Sig) { escape(); }

__attribute__((noinline)) void stuck(void) {
  struct itimerval Once = {{0, 0}, {0, 2000}};
  setitimer(ITIMER_REAL, &Once, 0);
  for (;;)
    spin_ns(1000);
}
__attribute__((noinline)) void later(void) { spin_ns(3000000); }
__attribute__((noinline)) void run(void) {
  if (!sigsetjmp(Back, 1))
    stuck();
  later();
}

int main(void) {
  signal(SIGALRM, on_alarm);
  run();
  return 0;
}

// CHECK-NOT: in escape
// CHECK-DAG: spike: {{.*}} in stuck
// CHECK-DAG: left by an exception or longjmp
// CHECK-DAG: spike: {{.*}} in later
// CHECK-DAG: #2 later
// CHECK-NOT: in escape
// The stack of later is its own (not under stuck, not in a handler).
// LATER: spike: {{.*}} in later
// LATER-NEXT: thread main (tid {{[0-9]+}}), {{.*}} after start{{$}}
// LATER-NEXT: #0 main
// LATER-NEXT: #1 run
// LATER-NEXT: #2 later
