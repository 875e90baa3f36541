// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=live_log=1 %t 2>&1 | FileCheck %s

// live_log=1 prints PET-style lines while the program runs, from a
// background thread: the full stack at a thread's first spike, then one line
// for each caller that also spiked. They appear while main sleeps, long
// before exit, and never from the thread that spiked.

#include "../Inputs/spin.h"
#include <stdio.h>
#include <time.h>

__attribute__((noinline)) void create_meshes(void) { spin_ns(20000000); }
__attribute__((noinline)) void spawn_character(void) { create_meshes(); }

int main(void) {
  spawn_character();
  // Far more than the thread's 20 ms poll, even on a loaded machine.
  struct timespec t = {1, 0};
  nanosleep(&t, 0);
  fprintf(stderr, "main: awake\n");
  return 0;
}

// CHECK:      spiketrap: spike {{[0-9.]+}} ms in create_meshes ({{.*}}live-log.c:13), threshold 1.000 ms, thread main (tid {{[0-9]+}}), {{[0-9.]+ [mu]?s}} after start
// CHECK-NEXT:   #0  main ({{.*}}live-log.c:16)
// CHECK-NEXT:   #1  spawn_character ({{.*}}live-log.c:14)
// CHECK-NEXT:   #2  create_meshes ({{.*}}live-log.c:13)
// CHECK-NEXT: spiketrap: spike {{[0-9.]+}} ms in spawn_character ({{.*}}live-log.c:14), threshold 1.000 ms, thread main (tid {{[0-9]+}}): #1 of the stack above
// CHECK-NEXT: main: awake
// CHECK-NEXT: ==== spiketrap report
