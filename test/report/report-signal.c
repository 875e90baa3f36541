// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: env SPIKETRAP_OPTIONS="report_signal=USR1 report=%t.dir/r.%%n.txt" %t %t.dir/r.1.txt 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=FIRST < %t.dir/r.1.txt
// RUN: FileCheck %s --check-prefix=SECOND < %t.dir/r.2.txt
// RUN: env SPIKETRAP_OPTIONS=report_signal=KILL %t 2>&1 | FileCheck %s --check-prefix=BAD

// report_signal=USR1 writes the reports whenever SIGUSR1 arrives (%n numbers
// them), from a background thread, and the program runs on; the report at
// exit follows. A signal that cannot be used keeps the default (none) and
// says so.

#include "../Inputs/spin.h"
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>

__attribute__((noinline)) void before(void) { spin_ns(20000000); }
__attribute__((noinline)) void after(void) { spin_ns(20000000); }

int main(int argc, char **argv) {
  before();
  if (argc > 1) {
    raise(SIGUSR1);
    // Wait (up to 20 s) for the report thread to write the file.
    struct stat st;
    for (int i = 0; i < 2000 && (stat(argv[1], &st) != 0 || !st.st_size); ++i)
      nanosleep(&(struct timespec){0, 10000000}, 0);
    spin_ns(50000000); // the file is complete once it is closed: be sure
  }
  after();
  printf("main: done\n");
  return 0;
}

// OUT: main: done

// FIRST:     spike: {{.*}} in before
// FIRST-NOT: in after
// FIRST:     spiketrap: 1 spikes

// SECOND-DAG: spike: {{.*}} in after
// SECOND-DAG: spike: {{.*}} in before
// SECOND: spiketrap: 2 spikes

// BAD: spiketrap: SPIKETRAP_OPTIONS: report_signal=KILL: expected USR1, USR2, HUP (or their numbers) or a real-time signal {{[0-9]+}} to {{[0-9]+}}; keeping the default none
// BAD: spiketrap: 2 spikes
