// RUN: %clang %spiketrap --target=x86_64-unknown-linux-gnu -O0 -c %s -o %t.o -mllvm -spiketrap-min-instructions=20 \
// RUN:   -Rpass=spiketrap -Rpass-missed=spiketrap 2>&1 | FileCheck %s
// The YAML writer wraps lines longer than 70 columns, so a long checkout path
// would split DebugLoc over two lines: compile a copy by its relative name.
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/select-remarks.c
// RUN: cd %t.d && %clang %spiketrap --target=x86_64-unknown-linux-gnu -O0 -c select-remarks.c -o r.o -mllvm -spiketrap-min-instructions=20 \
// RUN:   -fsave-optimization-record -foptimization-record-file=r.yaml
// RUN: FileCheck %s --check-prefix=YAML < %t.d/r.yaml

// -Rpass=spiketrap names every instrumented function with why and its
// thresholds; -Rpass-missed=spiketrap names every skipped one with the reason;
// both at the function's source location. -fsave-optimization-record gets the
// same remarks with their arguments.

#include "spiketrap.h"

void work(void);

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: instrumented 'frame' (attribute at {{.*}}select-remarks.c:[[@LINE+1]]): threshold 16.6ms (attribute at {{.*}}select-remarks.c:[[@LINE+1]]) [-Rpass=spiketrap]
SPIKETRAP_THRESHOLD_MS(16.6) void frame(void) { work(); }

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: instrumented 'interpreter' (attribute at {{.*}}): threshold inherited (children threshold of a caller, else the runtime's); children threshold 100us (attribute at {{.*}}); callees never reported (attribute at {{.*}}) [-Rpass=spiketrap]
SPIKETRAP_CHILDREN_THRESHOLD_US(100) SPIKETRAP_IGNORE_CHILDREN void interpreter(void) { work(); }

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: not instrumented 'excluded': never (attribute at {{.*}}select-remarks.c:[[@LINE+1]]) [-Rpass-missed=spiketrap]
SPIKETRAP_NEVER void excluded(int n) {
  for (int i = 0; i < n; ++i)
    work();
}

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: not instrumented 'xray_excluded': never (xray_never_instrument) [-Rpass-missed=spiketrap]
__attribute__((xray_never_instrument)) void xray_excluded(int n) {
  for (int i = 0; i < n; ++i)
    work();
}

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: not instrumented 'wrapper': too small: 2 IR instructions < -spiketrap-min-instructions=20, no loop [-Rpass-missed=spiketrap]
void wrapper(void) { work(); }

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: not instrumented 'leaf': leaf: no loop and no calls (-spiketrap-skip-leaves) [-Rpass-missed=spiketrap]
int leaf(int x) { return x * 3; }

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: instrumented 'looping' (has a loop): threshold inherited
void looping(int n) {
  for (int i = 0; i < n; ++i)
    work();
}

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: not instrumented 'bare': naked [-Rpass-missed=spiketrap]
__attribute__((naked)) void bare(void) { __asm__("ret"); }

// CHECK: select-remarks.c:[[@LINE+1]]:1: remark: instrumented 'main' (default for main): threshold inherited (children threshold of a caller, else the runtime's); never reported (default for main) [-Rpass=spiketrap]
int main(void) {
  frame();
  return 0;
}

// YAML:      --- !Passed
// YAML-NEXT: Pass: spiketrap
// YAML-NEXT: Name: Instrumented
// YAML-NEXT: DebugLoc: { File: {{'?}}select-remarks.c{{'?}}, Line: 20, Column: 0 }
// YAML-NEXT: Function: frame
// YAML-NEXT: Args:
// YAML-NEXT:   - String: 'instrumented '''
// YAML-NEXT:   - Function: frame
// YAML:        - Reason: 'attribute at {{.*}}select-remarks.c:20'
// YAML:        - Threshold: 16.6ms
// YAML:      --- !Missed
// YAML-NEXT: Pass: spiketrap
// YAML-NEXT: Name: Never
