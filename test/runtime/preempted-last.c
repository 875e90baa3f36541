// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap -g -O2 -pthread %s %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t 2>&1 | FileCheck %s
// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: Windows keeps no run delay a process can read.)
// (Under a sanitizer the watcher, which reads run delays, does not start.)

// The report leads with code to fix: a spike late because its thread
// waited for a CPU (render, as in preempted.c: ~700 ms) comes after a
// shorter spike of real work (update: 150 ms of CPU in code not
// instrumented, which samples name), both in the table and in the stacks.

#define _GNU_SOURCE
#include "../Inputs/shared_cpu.h"
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned burn_cpu_ms(int Ms); // Inputs/burn_cpu.c, not instrumented

__attribute__((noinline)) unsigned render(void) { return burn_cpu_ms(10); }
__attribute__((noinline)) unsigned update(void) { return burn_cpu_ms(150); }

int main(void) {
  unsigned R = update(); // first: nice 19 below is for good
  startHogOnThisCpu();
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  R += render();
  stopHog();
  return R == 42;
}

// CHECK:      culprit < callers that spiked
// (Named by samples, unless a loaded machine left too few that agree.)
// CHECK-NEXT: {{ (~ burn_cpu_ms \(.*\) \(sampled\) < update|update \(.*\))$}}
// CHECK-NEXT: render ({{.*}}preempted-last.c:[[#]]) (preempted){{$}}
// CHECK-EMPTY:
// CHECK-NEXT: spike: {{.*}} in update
// CHECK:      spike: {{.*}} in render
// CHECK:      spiketrap: 2 spikes
