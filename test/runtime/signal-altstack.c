// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %s --check-prefix=OUTER < %t.out
// RUN: FileCheck %s --check-prefix=HANDLER < %t.out
// UNSUPPORTED: windows
// (Windows: POSIX signal handlers (the C runtime's signal() is a plain call on Windows).)
// Sanitizers interpose sigaction themselves, in place of our trampoline.
// UNSUPPORTED: sanitize-address, sanitize-thread

// A handler on an alternate signal stack (SA_ONSTACK) has frame addresses
// unrelated to the interrupted code's: its hooks must not take the
// interrupted frames for dead. The interrupted function's spike keeps its
// stack, and the handler's spike is reported above it.

#include "../Inputs/spin.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

__attribute__((noinline)) void handler_work(void) { spin_ns(3000000); }
__attribute__((noinline)) void on_alarm(int Sig) { handler_work(); }

__attribute__((noinline)) void interrupted(void) {
  struct itimerval Once = {{0, 0}, {0, 5000}};
  setitimer(ITIMER_REAL, &Once, 0);
  spin_ns(20000000);
}
__attribute__((noinline)) void outer(void) { interrupted(); }

int main(void) {
  // Above the main stack's addresses: a naive comparison would drop frames.
  stack_t SS = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16};
  sigaltstack(&SS, 0);
  struct sigaction SA;
  memset(&SA, 0, sizeof(SA));
  SA.sa_handler = on_alarm;
  SA.sa_flags = SA_ONSTACK;
  sigaction(SIGALRM, &SA, 0);
  outer();
  return 0;
}

// OUTER: spike: {{.*}} in interrupted
// OUTER-NEXT: thread main
// OUTER-NEXT: #0 main
// OUTER-NEXT: #1 outer
// OUTER-NEXT: #2 interrupted

// HANDLER: spike: {{.*}} in handler_work
// HANDLER-NEXT: thread main {{.*}} in a SIGALRM handler
// HANDLER-NEXT: #0 main
// HANDLER-NEXT: #1 outer
// HANDLER-NEXT: #2 interrupted
// HANDLER-NEXT: -- SIGALRM handler --
// HANDLER-NEXT: #3 on_alarm
// HANDLER-NEXT: #4 handler_work
