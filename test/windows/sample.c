// RUN: %clang %spiketrap -mllvm -spiketrap-late-probes=false -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample_share=10:report_json=%t.json:verbosity=1 %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/../runtime/Inputs/sampled.py %t.json | FileCheck %s --check-prefix=JSON

// Sampling on Windows: the watcher's look stops a thread with a call open
// past half its threshold (SuspendThread), samples it from its registers
// (the PE unwind tables), and lets it go on. A switched-off function's
// spike on the main thread and an uninstrumented function's on a thread of
// CreateThread's are named by their samples, by the names the program's
// COFF symbol table gives them. Under Wine a sample stops a thread for
// 30 us to several ms (its wineserver's round trips on a loaded machine):
// sample_share=10 leaves room for a few in each spike, and a run that
// found no room for them is tried again.
// ALLOW_RETRIES: 2

#include "../Inputs/spin.h"
#include "spiketrap.h"
#include <windows.h>

volatile int Sink;

__attribute__((noinline)) int hot(int I) {
  int S = 0;
  for (int K = 0; K < 8; ++K)
    S += (I ^ K) & 7;
  if (I == 150000) // long after the switch-off (512 calls)
    spin_ns(100000000);
  return S;
}

__attribute__((noinline)) void frame(int N) {
  for (int I = 0; I < 1000; ++I)
    Sink += hot(N * 1000 + I);
}

// Not instrumented: only a sample sees it.
SPIKETRAP_NEVER __attribute__((noinline)) void crunch(void) {
  spin_ns(80000000);
}

__attribute__((noinline)) void job(void) { crunch(); }

static DWORD WINAPI worker(LPVOID Arg) {
  (void)Arg;
  job();
  return 0;
}

int main(void) {
  for (int N = 0; N < 200; ++N)
    frame(N);
  HANDLE T = CreateThread(NULL, 0, worker, NULL, 0, NULL);
  WaitForSingleObject(T, INFINITE);
  CloseHandle(T);
  return 0;
}

// The samples' cost: what the thread stood stopped for, within the budget.
// CHECK:      watcher: {{.*}}; [[#]] samples in [[#]] ticks of the threads
// CHECK:      spike: {{.*}} in frame ({{.*}}sample.c:[[#]]), threshold 20.000 ms
// CHECK:      #1  frame (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ hot ({{.*}}sample.c:[[#]])
// CHECK:      spike: {{.*}} in job ({{.*}}sample.c:[[#]]), threshold 20.000 ms
// CHECK:      #1  job (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ crunch

// JSON: frame > ~hot | culprit hot: ok
// JSON: job > ~crunch{{.*}} | culprit crunch{{.*}}: ok
