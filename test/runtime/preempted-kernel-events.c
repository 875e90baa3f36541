// REQUIRES: perf-events
// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap -g -O2 -pthread %S/preempted.c %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=kernel_events=1:threshold=100ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s --implicit-check-not=burn_cpu_ms < %t.err
// RUN: python3 %S/Inputs/preempted.py %t.json | FileCheck %s --check-prefix=JSON

// preempted.c's call, mostly waiting for the CPU, with kernel_events=1:
// the kernel's exact count of its preemptions is the one the report shows
// and blames (the run delay is not read: no second number).

// CHECK:      culprit < callers that spiked
// CHECK-NEXT: render ({{.*}}preempted.c:[[#]]) (preempted){{$}}
// CHECK:      #1  render ({{.*}}) {{[0-9.]+ m?s}} > 100.000 ms{{$}}
// CHECK-NEXT: kernel: {{.*}}preempted {{[0-9]+}} times for {{[0-9.]+ m?s}}
// CHECK-NOT:  sampled:

// JSON: preemption: kernel_events
// JSON-NEXT: render: preempted, preempted_ns ok
