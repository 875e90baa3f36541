// REQUIRES: perf-events
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=kernel_events=1:threshold=10ms:report_idle=1:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/kernel_events.py %t.json | FileCheck %s --check-prefix=JSON
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:report_idle=1 %run %t 2>&1 | FileCheck %s --check-prefix=OFF

// kernel_events=1: a call that faults in 400 fresh pages counts them; a call
// that computes while a busy thread shares its CPU was preempted, and for
// how long; a call that sleeps was off the CPU waiting; a call that only
// computes counts none of the faults before it.

#define _GNU_SOURCE
#include "../Inputs/shared_cpu.h"
#include "../Inputs/spin.h"
#include <sys/mman.h>
#include <unistd.h>

enum { Pages = 400 };

__attribute__((noinline)) void touch_pages(void) {
  char *P = mmap(0, Pages * 4096, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  madvise(P, Pages * 4096, MADV_NOHUGEPAGE); // one fault per page
  for (int I = 0; I < Pages; ++I)
    P[I * 4096] = 1;
  spin_ns(30 * 1000000);
}

__attribute__((noinline)) void compute(void) { spin_ns(30 * 1000000); }

__attribute__((noinline)) void nap(void) { usleep(60 * 1000); }

__attribute__((noinline)) void shared_cpu(void) { spin_ns(300 * 1000000); }

int main(void) {
  touch_pages();
  compute();
  nap();
  startHogOnThisCpu();
  usleep(20 * 1000); // the hog is running
  shared_cpu();
  stopHog();
  return 0;
}

// CHECK: spike: {{.*}} in touch_pages (
// CHECK: #1  touch_pages (
// CHECK-NEXT: kernel: {{[0-9]+}} page faults
// JSON: touch_pages: faults ok
// JSON: compute: no faults ok
// JSON: nap: blocked ok
// JSON: shared_cpu: preempted ok
// OFF-NOT: kernel:

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
