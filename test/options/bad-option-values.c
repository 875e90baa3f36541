// RUN: %clang %spiketrap -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS="threshold=18446744073.9999s:spike_memory=1.5M:report='x" %run %t 2>&1 | FileCheck %s

// Values out of range get one line each and keep the default instead of
// wrapping (issue 13, finding 8); a fraction of a size unit is taken as
// written; an unterminated quote is not silently taken as the rest.

int main(void) { return 0; }

// CHECK:      spiketrap: SPIKETRAP_OPTIONS: threshold=18446744073.9999s: expected a duration {{.*}}; keeping the default 1ms
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: report: the value's ' quote is not closed; keeping the default
// CHECK-NOT:  {{.}}
