// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap_all -g -O2 -pthread %s %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=300ms %run %t 2>&1 | FileCheck %s
// REQUIRES: no-sanitizer
// (Under a sanitizer the watcher, which reads run delays, does not start.)
// UNSUPPORTED: emulated
// (under qemu the watcher's first look comes late, and the time before it
// counts as running: self time passed a quarter of the call in CI's runs)

// A spike that was its thread waiting for a CPU says nothing of the code:
// adaptive mode neither keeps the function timed nor times its switched-off
// callees again (neither at the spike nor at the watcher's look while it
// runs). leaf is switched off after its first 512 calls; render, preempted
// (as in preempted.c), calls it 100 times; after calls it 1000 times more.
// Had render's own time been taken for its callees', leaf would be timed
// again, and those calls counted. At 300 ms: the wait for a CPU before the
// first tick, and a tick that came late for want of one, count as the
// call's own time (at 100 ms a loaded CI machine made it 107 ms, and the
// spike was not the preemption's). It burns 20 ms of CPU, as preempted.c does.

#define _GNU_SOURCE
#include "../Inputs/shared_cpu.h"
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned burn_cpu_ms(int Ms); // Inputs/burn_cpu.c, not instrumented

static volatile unsigned Sink;
__attribute__((noinline)) void leaf(unsigned I) { Sink = Sink + I; }
__attribute__((noinline)) void calls(unsigned N) {
  for (unsigned I = 0; I < N; ++I)
    leaf(I);
}
__attribute__((noinline)) unsigned render(void) {
  for (unsigned I = 0; I < 100; ++I)
    leaf(I);
  return burn_cpu_ms(20);
}

int main(void) {
  calls(1000);
  startHogOnThisCpu();
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  unsigned R = render();
  stopHog();
  calls(1000);
  return R == 42;
}

// CHECK: render ({{.*}}) (preempted)
// CHECK-NOT: candidate:
// main, two calls, render, the hog thread, and leaf's first 512 calls.
// CHECK: spiketrap: {{[0-9]+}} spikes, 517 instrumented calls
