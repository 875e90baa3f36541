// UNSUPPORTED: windows
// (Windows: no crash report on Windows yet (docs/windows.md).)
// Sanitizers install their own SIGSEGV handler: the action is not the default.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -pthread %s %rtlib -o %t
// RUN: not %run %t 2>&1 | FileCheck %s

// The runtime's crash handler stands in for the default action only: the
// program is told the action is the default, and a handler it installs
// replaces ours (no crash report; the program's handler decides).

#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int *volatile Null;

static void own(int Sig) {
  static const char Msg[] = "own handler\n";
  write(2, Msg, sizeof(Msg) - 1);
  _exit(3);
}

__attribute__((noinline)) void crash_here(void) { *Null = 1; }

// CHECK: SIGSEGV default: 1
// CHECK-NEXT: SIGABRT default: 1
// CHECK-NEXT: own handler
// CHECK-NOT: spiketrap
int main(void) {
  struct sigaction Old;
  sigaction(SIGSEGV, NULL, &Old);
  fprintf(stderr, "SIGSEGV default: %d\n",
          !(Old.sa_flags & SA_SIGINFO) && Old.sa_handler == SIG_DFL);
  sighandler_t Prev = signal(SIGABRT, SIG_DFL);
  fprintf(stderr, "SIGABRT default: %d\n", Prev == SIG_DFL);
  struct sigaction Act;
  memset(&Act, 0, sizeof(Act));
  Act.sa_handler = own;
  sigaction(SIGSEGV, &Act, NULL);
  crash_here();
  return 0;
}
