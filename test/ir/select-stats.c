// RUN: %clang %spiketrap --target=x86_64-unknown-linux-gnu -O0 -c %s -o %t.o -mllvm -spiketrap-min-instructions=20 \
// RUN:   -mllvm -spiketrap-stats 2>&1 | FileCheck %s
// RUN: %clang %spiketrap --target=x86_64-unknown-linux-gnu -O2 -c %s -o %t.o -mllvm -spiketrap-min-instructions=20 \
// RUN:   -mllvm -spiketrap-stats 2>&1 | FileCheck %s --check-prefix=O2
// RUN: %clang %spiketrap --target=x86_64-unknown-linux-gnu -O2 -c %s -o %t.o -mllvm -spiketrap-min-instructions=20 \
// RUN:   -mllvm -spiketrap-switch=flag -mllvm -spiketrap-stats 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: %clang %spiketrap --target=x86_64-unknown-linux-gnu -O0 -c %s -o %t.o -mllvm -spiketrap-min-instructions=20 \
// RUN:   -Xclang -print-stats 2>&1 | FileCheck %s --check-prefix=LLVM-STATS

// -mllvm -spiketrap-stats prints one summary line per module; the same counts
// are LLVM statistics (-stats on an assertions build of LLVM; clang's
// -print-stats on any). By default the instrumented functions are timed
// through patchable sites; with -spiketrap-switch=flag through thunks at -O2
// and with their hooks in place at -O0.

// O2: spiketrap: {{.*}}select-stats.c: 2 of 6 functions instrumented (2 through a patchable site, 0 through a thunk); skipped:
// CHECK: spiketrap: {{.*}}select-stats.c: 2 of 6 functions instrumented (2 through a patchable site, 0 through a thunk); skipped: 1 too small, 1 leaf, 1 never, 1 cannot (naked, available_externally, runtime), 0 already instrumented
// FLAG: spiketrap: {{.*}}select-stats.c: 2 of 6 functions instrumented (0 through a patchable site, 2 through a thunk); skipped:

// LLVM-STATS-DAG: 2 spiketrap - Functions instrumented
// LLVM-STATS-DAG: 2 spiketrap - Functions timed through a patchable site
// LLVM-STATS-DAG: 1 spiketrap - Functions not instrumented: too small
// LLVM-STATS-DAG: 1 spiketrap - Functions not instrumented: leaf
// LLVM-STATS-DAG: 1 spiketrap - Functions not instrumented: never
// LLVM-STATS-DAG: 1 spiketrap - Functions not instrumented: naked, available_externally or the runtime's

#include "spiketrap.h"

void work(void);
void wrapper(void) { work(); }
int leaf(int x) { return x * 3; }
SPIKETRAP_NEVER void excluded(void) { work(); }
__attribute__((naked)) void bare(void) { __asm__("ret"); }
void looping(int n) {
  for (int i = 0; i < n; ++i)
    work();
}
int main(void) { return 0; }
