// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap -g -O2 %s %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s --implicit-check-not=burn_cpu_ms --implicit-check-not=suggest: < %t.err
// RUN: python3 %S/Inputs/preempted.py %t.json | FileCheck %s --check-prefix=JSON

// A call whose thread waits for the CPU most of its time (another thread
// of the program has it) is labelled preempted: not its untimed callee,
// which the samples, taken while it runs, would name; no threshold is
// suggested for it. It needs 10 ms of CPU (more than a scheduler tick and
// a time slice: it cannot finish before the hog takes over) and gets ~1.5%
// of one: ~700 ms, far over its 100 ms threshold. The watcher reads its
// run delay after 50 ms (plus the watcher's own wait for a CPU), and
// counts a preemption still going on then: even a 40 ms one that ended
// just before leaves its own time, 10 ms of running, under half the
// threshold. (Another load on the machine only makes it wait longer.)

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned burn_cpu_ms(int Ms); // Inputs/burn_cpu.c, not instrumented

static int Stop; // atomic: the hog reads it on another thread

// This thread and the hog it starts on the first CPU this process may
// use: they must take turns.
static void pinToOneCpu(void) {
  cpu_set_t S;
  sched_getaffinity(0, sizeof S, &S);
  int C = 0;
  while (!CPU_ISSET(C, &S))
    ++C;
  CPU_ZERO(&S);
  CPU_SET(C, &S);
  sched_setaffinity(0, sizeof S, &S);
}

static void *hog(void *A) {
  while (!__atomic_load_n(&Stop, __ATOMIC_RELAXED))
    ;
  return A;
}

__attribute__((noinline)) unsigned render(void) { return burn_cpu_ms(10); }

int main(void) {
  pinToOneCpu();
  pthread_t H;
  pthread_create(&H, 0, hog, 0);
  // This thread gives way to the hog: nice 19 against 0.
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  unsigned R = render();
  __atomic_store_n(&Stop, 1, __ATOMIC_RELAXED);
  pthread_join(H, 0);
  return R == 42;
}

// CHECK:      culprit < callers that spiked
// CHECK-NEXT: render ({{.*}}preempted.c:[[#]]) (preempted){{$}}
// CHECK:      #1  render ({{.*}}) {{[0-9.]+ m?s}} > 100.000 ms (self {{[0-9.]+ [mu]s}}, preempted {{[0-9.]+ m?s}})
// CHECK-NOT:  sampled:
// CHECK-NOT:  untimed
// CHECK:      spiketrap: 1 spikes
// CHECK-NOT:  self times may include preemption

// JSON: preemption: run_delay
// JSON-NEXT: render: preempted, preempted_ns ok
