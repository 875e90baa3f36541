// RUN: %clang %spiketrap -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS="threshold=fast:colour=red:spike_memory=12X:clock=sundial" %run %t 2>&1 | FileCheck %s

// Each bad SPIKETRAP_OPTIONS entry gets one line naming it and what is
// expected; the defaults stay and the program runs (with nothing to report,
// nothing more is printed).

int main(void) { return 0; }

// CHECK: spiketrap: SPIKETRAP_OPTIONS: threshold=fast: expected a duration such as 500us, 1ms, 16.6ms or 2s (above 0, at most 1h); keeping the default 1ms
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: unknown option 'colour' ignored; SPIKETRAP_OPTIONS=help=1 lists them
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: spike_memory=12X: expected a size such as 512K, 8M or 1G (64K to 16G); keeping the default 8M
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS: clock=sundial: expected auto, tsc or monotonic; keeping the default auto
// CHECK-NOT: {{.}}
