// RUN: %clang %spiketrap -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=help=1 %run %t 2>&1 | FileCheck %s

// help=1 lists every option with its default and meaning, and the program
// still runs.

int main(void) { return 0; }

// CHECK: spiketrap: options (SPIKETRAP_OPTIONS=name=value:name=value; README.md has the details):
// CHECK-NEXT: enabled (1) 0: hooks return at once
// CHECK-NEXT: adaptive (1) stop timing often-called functions
// CHECK-NEXT: threshold (1ms) report calls longer than this
// CHECK-NEXT: report (stderr) where the text report goes
// CHECK: sample (1) sample calls open past half their threshold
// CHECK: help (0) print this list
// CHECK-NOT: spiketrap report
