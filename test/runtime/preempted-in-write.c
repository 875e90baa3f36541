// RUN: %clang %spiketrap -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t > %t.out 2> %t.err
// RUN: python3 %S/Inputs/preempted_writes.py %t.out %t.json | FileCheck %s
// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: Windows keeps no run delay a process can read.)
// (Under a sanitizer the watcher, which reads run delays, does not start,
// and the waits are not interposed.)

// A thread preempted inside a write that never blocks (a non-blocking
// pipe with room) lost that time waiting for a CPU, not in the write: its
// spike says preempted, not waited. The thread shares its CPU with a busy
// thread at nice 19 against 0 (shared_cpu.h): it gets ~1.5% of the CPU, so
// each time it is preempted it waits for tens of milliseconds, and most of
// its own time is spent inside write. It loops until it has seen three
// pushes (one write each) take over three times the threshold without
// blocking (no voluntary context switch in the whole loop), after one such
// write outside push (the runtime's first reading of its CPU time). A
// machine that never preempts it in 20 s, or where it blocked, proves
// nothing either way: the checker says so and passes.

#define _GNU_SOURCE
#include "../Inputs/shared_cpu.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static char Buf[4096];

__attribute__((noinline)) long push(int Fd) {
  return write(Fd, Buf, sizeof Buf);
}

static double nowMs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e3 + T.tv_nsec / 1e6;
}

static long voluntarySwitches(void) {
  struct rusage U;
  getrusage(RUSAGE_THREAD, &U);
  return U.ru_nvcsw;
}

int main(void) {
  int P[2];
  if (pipe2(P, O_NONBLOCK))
    return 1;
  startHogOnThisCpu();
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  long Blocked = voluntarySwitches();
  double Start = nowMs(), Longest = 0;
  int Warm = 0, Seen = 0;
  while (Seen < 3 && nowMs() - Start < 20000) {
    double T0 = nowMs();
    long R = Warm ? push(P[1]) : write(P[1], Buf, sizeof Buf);
    double Ms = nowMs() - T0;
    if (R != sizeof Buf || read(P[0], Buf, sizeof Buf) != sizeof Buf)
      return 1;
    Longest = Ms > Longest ? Ms : Longest;
    if (Ms > 60) // three times the threshold
      Seen += Warm, Warm = 1;
  }
  Blocked = voluntarySwitches() - Blocked;
  stopHog();
  printf("long pushes %d, blocked %ld, longest %.1f ms\n", Seen, Blocked,
         Longest);
  return 0;
}

// CHECK: {{^OK}}
