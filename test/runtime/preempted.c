// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap -g -O2 -pthread %s %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=300ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s --implicit-check-not=burn_cpu_ms --implicit-check-not=suggest: < %t.err
// RUN: python3 %S/Inputs/preempted.py %t.json | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (Under a sanitizer the watcher, which reads run delays, does not start.)
// UNSUPPORTED: emulated
// (under qemu the watcher's first look comes late, and the time before it
// counts as running: self time passed a quarter of the call in CI's runs)

// A call whose thread waits for the CPU most of its time (another thread
// of the program has it) is labelled preempted: not its untimed callee,
// which the samples, taken while it runs, would name; no threshold is
// suggested for it. It needs 20 ms of CPU (more than a scheduler tick and
// a time slice: it cannot finish before the hog takes over) and gets a
// small share of one: 0.5-1.5 s, far over its 300 ms threshold. The first
// look comes after 150 ms (plus its own wait for a CPU); what was missed
// before counts as running. With 10 ms of CPU a quick run (500-600 ms)
// left the measured preemption just under 3/4 of the call (1 run in ~10).
// (Another load on the machine only makes it wait longer.)

#define _GNU_SOURCE
#include "../Inputs/shared_cpu.h"
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned burn_cpu_ms(int Ms); // Inputs/burn_cpu.c, not instrumented

__attribute__((noinline)) unsigned render(void) { return burn_cpu_ms(20); }

int main(void) {
  startHogOnThisCpu();
  // This thread gives way to the hog: nice 19 against 0.
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  unsigned R = render();
  stopHog();
  return R == 42;
}

// CHECK:      culprit < callers that spiked
// CHECK-NEXT: render ({{.*}}preempted.c:[[#]]) (preempted){{$}}
// CHECK:      #1  render ({{.*}}) {{[0-9.]+ m?s}} > 300.000 ms (self {{[0-9.]+ [mu]s}}, preempted {{[0-9.]+ m?s}})
// CHECK-NOT:  sampled:
// CHECK-NOT:  untimed
// CHECK:      spiketrap: 1 spikes
// CHECK-NOT:  self times may include preemption

// JSON: preemption: run_delay
// JSON-NEXT: render: preempted, preempted_ns ok
