// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_idle=1:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/waits.py %t.json nap --min-wait 40 --max-wait 2000 --max-running 30 --call nanosleep --from nap | FileCheck %s --check-prefix=NAP
// RUN: env SPIKETRAP_OPTIONS=waits=0:report_idle=1 %run %t 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: python3 %S/Inputs/waits.py %t.json read_pipe --min-wait 40 --max-wait 2000 --max-running 30 --call read --from read_pipe | FileCheck %s --check-prefix=READ
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A spike that sleeps 60 ms (nanosleep) and one that waits 60 ms for a pipe
// another thread writes to (read) were waiting, not running.

#include "Inputs/late_pipe.h"


__attribute__((noinline)) void nap(void) {
  struct timespec T = {0, 60 * 1000000};
  nanosleep(&T, 0);
}

__attribute__((noinline)) int read_pipe(void) {
  char C = 0;
  return (int)read(Pipe[0], &C, 1) == 1 && C == 'x';
}

int main(void) {
  nap();
  if (!start_late_writer())
    return 2;
  int Ok = read_pipe();
  join_late_writer();
  return Ok ? 0 : 1;
}

// CHECK-DAG: waited {{[0-9.]+}} ms idle in nanosleep from nap ({{.*}}waits-sleep-read.c:{{[0-9]+}}); running
// CHECK-DAG: waited {{[0-9.]+}} ms in read from read_pipe ({{.*}}waits-sleep-read.c:{{[0-9]+}}); running
// NAP: nap: ok
// READ: read_pipe: ok

// waits=0: the calls go straight to the C library, and nothing says waited.
// OFF: spike: {{.*}} in nap
// OFF-NOT: waited

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
