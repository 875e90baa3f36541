// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env SPIKETRAP_OPTIONS=threshold=20us:report_signal=USR1:report=%t.dir/r.%%p.txt \
// RUN:   timeout 240 %run %t storm 2>%t.err | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=threshold=20us:live_log=1:report=%t.dir/l.%%p.txt \
// RUN:   timeout 240 %run %t 2>%t.err | FileCheck %s
// RUN: env SPIKETRAP_OPTIONS=threshold=20us:live_log=1:report=%t.dir/c.%%p.txt \
// RUN:   %run %t child-spike 2>&1 >/dev/null | FileCheck %s --check-prefix=LIVE
// UNSUPPORTED: windows
// (Windows: Windows has no fork.)
// TSan does not let a child of a multi-threaded process start threads.
// UNSUPPORTED: sanitize-thread

// fork() while a background thread of the runtime holds its lock (the report
// thread of report_signal= writing a report, the live log printing): every
// child exits (issue 13, finding 3: children hung at exit on ReportLock or
// the live log's lock). A thread of the parent spikes all the time, so both
// background threads always have work; with "storm", another sends SIGUSR1
// to the process every 200 us. Each child waits at most 30 s.
// In the child, the live log runs again: its own spikes are printed as
// they happen, not only at exit.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void spiky(void) { spin_ns(40000); }
__attribute__((noinline)) void child_spike(void) { spin_ns(2000000); }

static void *spiker(void *Arg) {
  for (;;)
    spiky();
  return Arg;
}

static void *storm(void *Arg) {
  for (;;) {
    kill(getpid(), SIGUSR1);
    usleep(200);
  }
  return Arg;
}

// Whether child P exited within Seconds.
static int exited(pid_t P, int Seconds) {
  for (int Ms = 0; Ms < Seconds * 1000; ++Ms) {
    if (waitpid(P, 0, WNOHANG) == P)
      return 1;
    usleep(1000);
  }
  kill(P, SIGKILL);
  waitpid(P, 0, 0);
  return 0;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && strcmp(Argv[1], "child-spike") == 0) {
    pid_t P = fork();
    if (P == 0) {
      child_spike();
      sleep(1); // time for the child's live log to print it
      fprintf(stderr, "child slept\n");
      exit(0);
    }
    printf("child exited: %d\n", exited(P, 30));
    return 0;
  }
  pthread_t T;
  pthread_create(&T, 0, spiker, 0);
  if (Argc > 1 && strcmp(Argv[1], "storm") == 0)
    pthread_create(&T, 0, storm, 0);
  usleep(100000); // the background threads are busy by now
  int Hung = 0, Forks = 50;
  for (int I = 0; I < Forks && !Hung; ++I) {
    fflush(stdout);
    pid_t P = fork();
    if (P == 0) {
      spiky();
      exit(0); // the report at exit takes the runtime's locks
    }
    if (!exited(P, 30)) {
      printf("child %d of %d hung\n", I + 1, Forks);
      Hung = 1;
    }
  }
  printf("children that exited: %d\n", Hung ? 0 : Forks);
  fflush(stdout);
  _exit(0); // no report of the parent's endless spikes
}

// CHECK-NOT: hung
// CHECK: children that exited: 50

// LIVE: spiketrap: spike {{.*}} in child_spike
// LIVE: child slept
