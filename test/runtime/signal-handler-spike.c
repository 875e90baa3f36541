// RUN: %clang -g -O2 -c %S/Inputs/plain_handler.c -o %t.plain.o
// RUN: %clang %spiketrap_all -g -O2 %s %t.plain.o %rtlib -o %t
// RUN: %run %t timed > %t.timed 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,TIMED --implicit-check-not='in frame_work' < %t.timed
// RUN: %run %t plain > %t.plain 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,PLAIN --implicit-check-not='in frame_work' < %t.plain
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t plain > /dev/null 2>&1
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: python3 %S/../Inputs/report_json.py signals %t.json | FileCheck %s --check-prefix=JSON
// RUN: %spiketrap_report summary %t.json | FileCheck %s --check-prefix=SUMMARY
// RUN: %run %t switched > %t.switched 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,SWITCHED --implicit-check-not='in frame_work' < %t.switched
// RUN: %run %t onstack > %t.onstack 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,TIMED --implicit-check-not='in frame_work' < %t.onstack
// RUN: %run %t plain-onstack > %t.plain-onstack 2>&1
// RUN: FileCheck %s --check-prefixes=CHECK,PLAIN --implicit-check-not='in frame_work' < %t.plain-onstack
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t nested > %t.nested 2>&1
// RUN: FileCheck %s --check-prefix=NESTED --implicit-check-not='in frame_work' --implicit-check-not='in on_usr1' < %t.nested
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms %run %t longjmp > %t.longjmp 2>&1
// RUN: FileCheck %s --check-prefix=LONGJMP --implicit-check-not='in frame_work' < %t.longjmp
// UNSUPPORTED: windows
// (Windows: POSIX signal handlers (the C runtime's signal() is a plain call on Windows).)
// Sanitizers interpose sigaction themselves, in place of our trampoline.
// UNSUPPORTED: sanitize-address, sanitize-thread

// Issue 36: a SIGUSR1 handler, fast every time but once, runs 150 ms once
// while the main thread is in a frame's hot loop. The handler's time is its
// own: a spike of the handler, in a SIGUSR1 handler, on the main thread,
// under the interrupted stack; and the interrupted frame_work (300 us of its
// own work a frame, threshold 100 ms: a loaded machine's preemption is no
// spike of it) is never a spike for it. Whether the handler is timed
// (instrumented here), switched off by adaptive mode (on_hot_usr1, with no
// threshold of its own, raised 60 times a frame, fast: switched off at
// its first look, the trampoline times it then), or never instrumented
// (plain_handler, compiled without the plugin: the trampoline times it,
// named by its symbol), on the thread's stack or an alternate one
// (SA_ONSTACK). Nested: the SIGUSR2 handler that spikes inside the SIGUSR1
// one is its own spike, and neither the SIGUSR1 handler nor frame_work is
// late by it. A handler that leaves by siglongjmp: its time is still not
// frame_work's, and its spike, closed at the next hook, is still marked as
// run in the handler.

#include "../Inputs/spin.h"
#include <setjmp.h>
#include <signal.h>
#include <spiketrap.h>
#include <stdlib.h>
#include <string.h>

extern volatile int PlainSlow;
void plain_handler(int Sig);

static volatile int Slow, Nest, Jump, Raises = 1;
static volatile unsigned Sink;
static sigjmp_buf Back;

__attribute__((noinline)) void on_usr2(int Sig) { spin_ns(150000000); }
SPIKETRAP_THRESHOLD_MS(100) __attribute__((noinline)) void on_usr1(int Sig) {
  if (!Slow) {
    spin_ns(1000);
    return;
  }
  if (Nest) {
    spin_ns(100000);
    raise(SIGUSR2); // delivered here, inside this handler
    return;
  }
  spin_ns(150000000);
  if (Jump)
    siglongjmp(Back, 1);
}

__attribute__((noinline)) void on_hot_usr1(int Sig) {
  spin_ns(Slow ? 150000000 : 1000);
}

__attribute__((noinline)) void hot_step(unsigned I) { Sink += I; }
// A frame's work: 300 us of hot calls, with the signal in the middle.
SPIKETRAP_THRESHOLD_MS(100)
__attribute__((noinline)) void frame_work(int Frame) {
  for (int Half = 0; Half < 2; ++Half) {
    for (int R = 0; Half && R < Raises; ++R) {
      Slow = PlainSlow = Frame == 12 && R == Raises - 1;
      raise(SIGUSR1);
    }
    for (unsigned I = 0; I < 1000; ++I)
      hot_step(I);
    spin_ns(150000);
  }
}

int main(int Argc, char **Argv) {
  const char *Mode = Argc > 1 ? Argv[1] : "timed";
  int Plain = strstr(Mode, "plain") != 0;
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  sigemptyset(&A.sa_mask);
  int Switched = strcmp(Mode, "switched") == 0;
  A.sa_handler = Plain ? plain_handler : Switched ? on_hot_usr1 : on_usr1;
  if (strstr(Mode, "onstack")) {
    stack_t S = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16};
    sigaltstack(&S, 0);
    A.sa_flags = SA_ONSTACK;
  }
  sigaction(SIGUSR1, &A, 0);
  A.sa_handler = on_usr2;
  sigaction(SIGUSR2, &A, 0);
  Nest = strcmp(Mode, "nested") == 0;
  Jump = strcmp(Mode, "longjmp") == 0;
  Raises = Switched ? 60 : 1;
  for (volatile int F = 0; F < 24; ++F) {
    if (!sigsetjmp(Back, 1))
      frame_work(F);
  }
  return 0;
}

// The culprit row says the spike was run by a handler.
// CHECK: {{[0-9]+}}/{{[0-9]+}} {{.*}} (SIGUSR1 handler){{$}}
// TIMED: spike: {{.*}} in on_usr1 ({{.*}}signal-handler-spike.c:{{[0-9]+}})
// SWITCHED: spike: {{.*}} in on_hot_usr1 ({{.*}}signal-handler-spike.c:{{[0-9]+}})
// PLAIN: spike: {{.*}} in plain_handler ({{.*}})
// CHECK-NEXT: thread main {{.*}} in a SIGUSR1 handler
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 frame_work
// CHECK-NEXT: -- SIGUSR1 handler --
// TIMED-NEXT: #2 on_usr1
// SWITCHED-NEXT: #2 on_hot_usr1
// PLAIN-NEXT: #2 plain_handler
// CHECK: spiketrap: {{[0-9]+}} spikes,

// The handler the trampoline timed: its own entry, with its 24 runs.
// VALID: 1 valid, 0 invalid
// JSON: plain_handler True 24 10
// SUMMARY: plain_handler ({{.*}}) (SIGUSR1 handler){{$}}

// (threshold=20ms, here and for longjmp: under an emulator the handler's
// entry and exit around the timed on_usr2 take ms of their own, and a
// hot_step may run past 1 ms)
// NESTED: spike: {{.*}} in on_usr2 ({{.*}}signal-handler-spike.c:{{[0-9]+}})
// NESTED-NEXT: thread main {{.*}} in a SIGUSR2 handler
// NESTED-NEXT: #0 main
// NESTED-NEXT: #1 frame_work
// NESTED-NEXT: #2 on_usr1
// NESTED-NEXT: -- SIGUSR2 handler --
// NESTED-NEXT: #3 on_usr2
// NESTED: spiketrap: 1 spikes,

// LONGJMP: spike: {{.*}} in on_usr1 ({{.*}}signal-handler-spike.c:{{[0-9]+}})
// LONGJMP-NEXT: thread main {{.*}} in a SIGUSR1 handler
// LONGJMP-NEXT: #0 main
// LONGJMP-NEXT: #1 frame_work
// LONGJMP-NEXT: -- SIGUSR1 handler --
// LONGJMP-NEXT: #2 on_usr1
// LONGJMP-NEXT: left by an exception or longjmp
// LONGJMP-NOT: in on_usr1
// LONGJMP: spiketrap: {{[0-9]+}} spikes,
