// RUN: %clang %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 > %t.O0.out 2>&1
// RUN: FileCheck %s --check-prefix=OUTER < %t.O0.out
// RUN: FileCheck %s --check-prefix=HANDLER < %t.O0.out
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 > %t.O2.out 2>&1
// RUN: FileCheck %s --check-prefix=OUTER < %t.O2.out
// RUN: FileCheck %s --check-prefix=HANDLER < %t.O2.out
// UNSUPPORTED: windows
// (Windows: POSIX signal handlers (the C runtime's signal() is a plain call on Windows).)
// Sanitizers interpose sigaction themselves, in place of our trampoline.
// UNSUPPORTED: sanitize-address, sanitize-thread

// An instrumented signal handler that interrupts an instrumented function
// nests on the same thread's stack: its spike is reported above the
// interrupted frames and marked as in a signal handler, and the interrupted
// function's own spike is intact afterwards.

#include "../Inputs/spin.h"
#include <signal.h>
#include <sys/time.h>

__attribute__((noinline)) void handler_work(void) { spin_ns(3000000); }
__attribute__((noinline)) void on_alarm(int Sig) { handler_work(); }

__attribute__((noinline)) void busy(void) {
  struct itimerval Once = {{0, 0}, {0, 5000}};
  setitimer(ITIMER_REAL, &Once, 0);
  spin_ns(20000000);
}

int main(void) {
  signal(SIGALRM, on_alarm);
  busy();
  return 0;
}

// OUTER: spike: {{.*}} in busy ({{.*}}signal-nesting.c:{{[0-9]+}})
// OUTER-NEXT: thread main
// OUTER-NEXT: #0 main
// OUTER-NEXT: #1 busy

// HANDLER: spike: {{.*}} in handler_work ({{.*}}signal-nesting.c:{{[0-9]+}})
// HANDLER-NEXT: thread main {{.*}} in a SIGALRM handler
// HANDLER-NEXT: #0 main
// HANDLER-NEXT: #1 busy
// HANDLER-NEXT: -- SIGALRM handler --
// HANDLER-NEXT: #2 on_alarm
// HANDLER-NEXT: #3 handler_work
