// RUN: %clang %spiketrap_all -O2 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=recent_calls=8:threshold=10ms:report_json=%t.json %run %t 2>&1 | FileCheck %s
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: python3 -m json.tool --compact %t.json | FileCheck %s --check-prefix=JSON
// RUN: %spiketrap_report convert --to trace %t.json | FileCheck %s --check-prefix=TRACE
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms %run %t 2>&1 | FileCheck %s --check-prefix=OFF

// recent_calls=N saves the thread's last N timed calls with each spike: the
// frame around it, in order, with their depth. (10 ms: a thread's first
// call, which registers it, took 4 ms under qemu.)

#include "../Inputs/spin.h"

__attribute__((noinline)) void read_input(void) { spin_ns(10000); }
__attribute__((noinline)) void physics_step(void) { spin_ns(10000); }
__attribute__((noinline)) void physics(void) { physics_step(); }
__attribute__((noinline)) void animate(void) { spin_ns(10000); }
__attribute__((noinline)) void load_level(void) { spin_ns(30000000); }
__attribute__((noinline)) void frame(void) {
  read_input();
  physics();
  animate();
  load_level();
}

// CHECK: spike: {{.*}} in load_level
// CHECK: the last 4 timed calls on this thread (of 4 kept), in the order they returned; start relative to the spike's:
// CHECK-NEXT: -{{[0-9.]+ [mun]?s}}      read_input ({{.*}})  {{[0-9.]+ [mun]?s}}
// CHECK-NEXT: -{{[0-9.]+ [mun]?s}}        physics_step ({{.*}})  {{[0-9.]+ [mun]?s}}
// CHECK-NEXT: -{{[0-9.]+ [mun]?s}}      physics ({{.*}})  {{[0-9.]+ [mun]?s}}
// CHECK-NEXT: -{{[0-9.]+ [mun]?s}}      animate ({{.*}})  {{[0-9.]+ [mun]?s}}
// VALID: 1 valid, 0 invalid
// JSON: "recent":[{"function":{{[0-9]+}},"start_ns":{{[0-9]+}},"duration_ns":{{[0-9]+}},"depth":2},{"function":{{[0-9]+}},"start_ns":{{[0-9]+}},"duration_ns":{{[0-9]+}},"depth":3},
// TRACE-DAG: "name": "read_input", "cat": "recent"
// TRACE-DAG: "name": "physics_step", "cat": "recent"
// TRACE-DAG: "name": "load_level", "cat": "spike"
// OFF-NOT: timed calls on this thread
int main(void) {
  frame();
  return 0;
}
