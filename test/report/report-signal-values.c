// RUN: %clang %spiketrap -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_signal=15 %t 2>&1 | FileCheck %s --check-prefix=BAD -DV=15
// RUN: env SPIKETRAP_OPTIONS=report_signal=INT %t 2>&1 | FileCheck %s --check-prefix=BAD -DV=INT
// RUN: env SPIKETRAP_OPTIONS=report_signal=2 %t 2>&1 | FileCheck %s --check-prefix=BAD -DV=2
// RUN: env SPIKETRAP_OPTIONS=report_signal=32 %t 2>&1 | FileCheck %s --check-prefix=BAD -DV=32
// RUN: env SPIKETRAP_OPTIONS=report_signal=10 %t 2>&1 | FileCheck %s --allow-empty --check-prefix=GOOD
// RUN: env SPIKETRAP_OPTIONS=report_signal=SIGUSR1 %t 2>&1 | FileCheck %s --allow-empty --check-prefix=GOOD
// RUN: env SPIKETRAP_OPTIONS=report_signal=40 %t 2>&1 | FileCheck %s --allow-empty --check-prefix=GOOD

// report_signal= takes USR1, USR2, HUP (by name or number) and the real-time
// signals glibc leaves to programs; signals that must keep stopping the
// program (INT, TERM, ...) and glibc's own (32, 33) get one line and the
// default, none (issue 13, finding 8).

int main(void) { return 0; }

// BAD: spiketrap: SPIKETRAP_OPTIONS: report_signal=[[V]]: expected USR1, USR2, HUP (or their numbers) or a real-time signal {{[0-9]+}} to {{[0-9]+}}; keeping the default none
// BAD-NOT: {{.}}
// GOOD-NOT: {{.}}
