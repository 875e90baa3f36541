// RUN: %clang %spiketrap --target=x86_64-unknown-linux-gnu -O2 -S -emit-llvm -mllvm -spiketrap-switch=flag %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang --target=x86_64-unknown-linux-gnu -O2 -S -emit-llvm -Xclang -disable-llvm-passes \
// RUN:   -I%inc %s -o - | %opt -passes=spiketrap-keep -S | FileCheck %s --check-prefix=KEEP

// The pass runs after inlining, so a function whose attribute asks for it to
// be timed is kept out of line (noinline, added before the inliner runs): at
// -O2 it keeps its own hooks and descriptor. Unmarked, never and always_inline
// functions are inlined as usual.

#include "spiketrap.h"

void work(int);

// KEEP: define internal void @script_step(i32 noundef %{{.*}}) #[[NOINLINE:[0-9]+]]
SPIKETRAP_THRESHOLD_US(100) static void script_step(int i) { work(i); }
// KEEP: define internal void @plain_step(i32 noundef %{{.*}}) #[[PLAIN:[0-9]+]]
static void plain_step(int i) { work(i + 1); }
// KEEP: define internal void @never_step(i32 noundef %{{.*}}) #[[PLAIN]]
SPIKETRAP_NEVER static void never_step(int i) { work(i + 2); }
// KEEP: define internal void @forced_step(i32 noundef %{{.*}}) #[[FORCED:[0-9]+]]
SPIKETRAP_ALWAYS __attribute__((always_inline)) static void forced_step(int i) {
  work(i + 3);
}

// (run and script_step are timed through thunks; their bodies come last.)
// CHECK-LABEL: define internal void @script_step(
// CHECK:         musttail call void @script_step.spiketrap_timed(
// CHECK-LABEL: define internal void @run.spiketrap(
// CHECK-NOT:     call void @plain_step(
// CHECK-NOT:     call void @never_step(
// CHECK-NOT:     call void @forced_step(
// CHECK:         call void @script_step(
// CHECK-LABEL: define internal void @script_step.spiketrap_timed(
// CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.script_step,
void run(int n) {
  for (int i = 0; i < n; ++i) {
    script_step(i);
    plain_step(i);
    never_step(i);
    forced_step(i);
  }
}

// KEEP-DAG: attributes #[[NOINLINE]] = { noinline
// KEEP-DAG: attributes #[[PLAIN]] = { nounwind
// KEEP-DAG: attributes #[[FORCED]] = { alwaysinline nounwind
