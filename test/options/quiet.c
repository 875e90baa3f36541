// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10s %run %t 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: rm -f %t.json
// RUN: env SPIKETRAP_OPTIONS=threshold=10s:report_json=%t.json %run %t 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: env SPIKETRAP_OPTIONS=threshold=10s:report=%t.txt %run %t 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: FileCheck %s --check-prefix=TOTALS < %t.txt
// RUN: env SPIKETRAP_OPTIONS=threshold=10s:verbosity=1 %run %t 2>&1 | FileCheck %s --check-prefix=TOTALS

// Quiet like a sanitizer: a run with no spike, nothing dropped and no call
// past the depth prints nothing at exit. Files asked for by name are still
// written, and verbosity=1 prints the totals anyway. (A 10 s threshold:
// under qemu on a loaded machine the first call took over 1 ms.)

__attribute__((noinline)) int add(int a, int b) { return a + b; }

int main(void) { return add(1, 2) == 3 ? 0 : 1; }

// QUIET-NOT: {{.}}
// JSON: "spikes":[],
// JSON-NEXT: "hangs":[],
// JSON-NEXT: "open":[]}
// TOTALS: ==== spiketrap report
// TOTALS: spiketrap: 0 spikes, 2 instrumented calls, 1 threads, 0 dropped records, 0 calls past depth
