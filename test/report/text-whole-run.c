// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -lpthread -o %t
// RUN: env SPIKETRAP_OPTIONS=sample=0:threshold=200us:report_json=%t.json %t 2>&1 | FileCheck %s
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: %spiketrap_report summary %t.json | FileCheck %s --check-prefix=TOOL
// RUN: python3 %S/../Inputs/report_json.py whole-run %t.json | FileCheck %s --check-prefix=JSON

// A call that lasts the whole run (a benchmark's run() joining the thread
// that does the work) is the program's driver, not a stutter: its row
// comes after the spikes inside the run, whatever its duration, and says
// "(whole run)". Only in a run a thousand times the threshold (here 200 us
// against ~300 ms); in a shorter one every row is an event.

#include "../Inputs/spin.h"
#include <pthread.h>

__attribute__((noinline)) void step(void) { spin_ns(3000000); }
__attribute__((noinline)) void simulate(void) {
  for (int I = 0; I < 100; ++I)
    step();
}
static void *worker(void *Arg) {
  simulate();
  return Arg;
}
__attribute__((noinline)) void run(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
}

int main(void) {
  run();
  return 0;
}

// CHECK:      spikes  worst      median     p95        threshold  spiked/calls  culprit < callers that spiked
// CHECK:      {{ }}100/100 100%  step ({{.*}}text-whole-run.c:{{[0-9]+}}){{( \(preempted\))?}} < simulate{{$}}
// CHECK:      1/1 100%{{ +}}run ({{.*}}text-whole-run.c:{{[0-9]+}}){{.*}} (whole run){{$}}
// TOOL:       100/100 100%  step ({{.*}}) < simulate{{$}}
// TOOL:       1/1 100%{{ +}}run ({{.*}}){{.*}} (whole run){{$}}
// JSON-DAG:   step False
// JSON-DAG:   run True
// JSON-NOT:   step True
// VALID: 1 valid, 0 invalid
