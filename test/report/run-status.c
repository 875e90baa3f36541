// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: bash -c 'SPIKETRAP_OPTIONS=report=none %spiketrap_report run --json %t.d/r.json --folded %t.d/r.folded -- %t exit 3; echo status=$?' | FileCheck %s --check-prefix=EXIT
// RUN: %spiketrap_report validate %t.d/r.json | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=FOLDED < %t.d/r.folded
// RUN: bash -c 'SPIKETRAP_OPTIONS=report=none %spiketrap_report run --json %t.d/t.json -- %t term; echo status=$?' 2>&1 | FileCheck %s --check-prefix=SIGNAL
// RUN: bash -c '%spiketrap_report run --html %t.d/x.html -- %t.d/no-such-program; echo status=$?' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: bash -c 'SPIKETRAP_OPTIONS=enabled=0 %spiketrap_report run --html %t.d/x.html -- %t; echo status=$?' 2>&1 | FileCheck %s --check-prefix=NOREPORT

// spiketrap-report run exits as the program did: with its exit status
// (after converting the report it wrote at exit), or killed by the same
// signal (the shell sees 128 + N); a program that cannot be run is 127, as
// in a shell; a run that wrote no report says so and fails.

#include "../Inputs/spin.h"
#include <signal.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) void hitch(void) { spin_ns(3000000); }

int main(int argc, char **argv) {
  hitch();
  if (argc > 1 && strcmp(argv[1], "exit") == 0)
    exit(3);
  if (argc > 1 && strcmp(argv[1], "term") == 0)
    raise(SIGTERM);
  return 0;
}

// EXIT: status=3
// VALID: 1 valid, 0 invalid
// FOLDED: main;hitch {{[0-9]+}}
// SIGNAL: status=143
// MISSING: spiketrap-report: cannot run {{.*}}no-such-program: No such file or directory
// MISSING: status=127
// NOREPORT: spiketrap-report: {{.*}} wrote no JSON report
// NOREPORT: status=1
