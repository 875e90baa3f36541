// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: rm -f %t.jsonl %t.otlp
// RUN: env SPIKETRAP_OPTIONS="threshold=10ms report=none" %spiketrap_report run --jsonl %t.jsonl --otlp %t.otlp -- %run %t
// RUN: FileCheck %s < %t.jsonl
// RUN: python3 %S/../report/Inputs/check_otlp.py %t.otlp | FileCheck %s --check-prefix=OTLP

// The one-step path for a farm machine: run writes the fleet rows and the
// OpenTelemetry traces of the program's report as it exits (the same
// writers as export).

#include "../Inputs/spin.h"

__attribute__((noinline)) void load_asset(void) { spin_ns(30000000); }

int main(void) {
  load_asset();
  return 0;
}

// CHECK: "type":"run"
// CHECK: "type":"spike"{{.*}}"function":"load_asset"
// OTLP: trace main > load_asset
