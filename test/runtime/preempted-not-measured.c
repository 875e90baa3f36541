// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap -g -O2 -pthread %S/preempted.c %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms:sample=0 %run %t 2>&1 | FileCheck %s --implicit-check-not="(preempted)" --implicit-check-not=", preempted"
// UNSUPPORTED: windows
// (Windows: Windows keeps no run delay a process can read.)

// preempted.c's call, mostly waiting for the CPU, where the runtime does
// not measure preemption: sample=0 (and no hang_after=) starts no watcher
// thread, which reads the run delay. The report says so once, and labels
// nothing preempted.

// CHECK:      culprit < callers that spiked
// CHECK-NEXT: render ({{.*}}preempted.c:[[#]]){{$}}
// CHECK:      spiketrap: self times may include preemption (time waiting for a CPU): not measured, no watcher thread (sample=0)
// CHECK-NOT:  preemption
