// RUN: %clangxx %spiketrap_all -g -O0 -pthread %s %rtlib -o %t.O0
// RUN: %run %t.O0 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap_all -g -O2 -pthread %s %rtlib -o %t.O2
// RUN: %run %t.O2 2>&1 | FileCheck %s

// Instrumented code before main (a static constructor) is timed and
// reported; instrumented code after the report (an atexit handler, static
// and thread_local destructors) and a thread still calling instrumented code
// while the process exits neither crash nor corrupt the report.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void load_config() { spin_ns(3000000); }
struct Config {
  Config() { load_config(); }
  ~Config() { spin_ns(2000000); }
} TheConfig;

__attribute__((noinline)) void late_cleanup() { spin_ns(2000000); }
__attribute__((noinline)) void on_exit_handler() { late_cleanup(); }

struct PerThread {
  ~PerThread() { late_cleanup(); }
};
thread_local PerThread TLS;

unsigned long Ticks; // atomic: TSan runs this test too
__attribute__((noinline)) void tick() {
  __atomic_fetch_add(&Ticks, 1, __ATOMIC_RELAXED);
}
__attribute__((noinline)) void *spinner(void *) {
  for (;;) // still running when main returns
    tick();
}

int main() {
  atexit(on_exit_handler);
  (void)&TLS;
  pthread_t T;
  pthread_create(&T, nullptr, spinner, nullptr);
  // Running before main returns (on a loaded machine it had not started).
  while (!__atomic_load_n(&Ticks, __ATOMIC_RELAXED))
    sched_yield();
  spin_ns(2000000);
  fputs("main done\n", stderr);
  return 0;
}

// CHECK: main done
// CHECK: spike: {{.*}} in load_config() ({{.*}}startup-shutdown.cpp:{{[0-9]+}})
// CHECK-NEXT: thread main
// CHECK: spiketrap: {{[0-9]+}} spikes, {{[0-9]+}} instrumented calls, 2 threads, 0 dropped records
