// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=hang_after=200ms %run %t %t.err 2> %t.err
// RUN: FileCheck %s < %t.err

// A thread that marks frames and stops marking them for hang_after is stuck
// in its innermost call open that long, even while that call keeps making
// instrumented calls (a loop retrying something): load_level is reported
// while it still loops (it returns only once the report is in the file its
// stderr goes to), and again when it returns.

#define _GNU_SOURCE
#include <spiketrap.h>
#include <time.h>
#include <unistd.h>

#include "Inputs/logged.h"

__attribute__((noinline)) void try_open(void) {
  struct timespec T = {0, 5 * 1000000};
  nanosleep(&T, NULL);
}

// CHECK: spiketrap: hang: thread main (tid {{[0-9]+}}) has been in load_level ({{.*}}) for {{.*}} and is still there; open stack:
// CHECK-NEXT: #0  main
// CHECK-NEXT: #1  frame
// CHECK-NEXT: #2  load_level
// CHECK-NOT: #3
// CHECK: spiketrap: hang over: thread main (tid {{[0-9]+}}): load_level ({{.*}}) returned after
__attribute__((noinline)) void load_level(void) {
  for (int I = 0; I < 6000 && !logged("is still there"); ++I)
    try_open(); // 30 s at most
}

__attribute__((noinline)) void frame(int N) {
  if (N == 5)
    load_level();
  try_open();
}

int main(int Argc, char **Argv) {
  Log = Argc > 1 ? Argv[1] : "/dev/null";
  for (int N = 0; N < 10 || (N < 6000 && !logged("hang over")); ++N) {
    frame(N);
    spiketrap_frame_mark();
  }
  return 0;
}
