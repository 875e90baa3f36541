// RUN: %clangxx %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --suggest-list %t.list -- %t 2>&1 | count 0
// RUN: %clangxx %spiketrap -mllvm -spiketrap-instrument-all -mllvm -spiketrap-list=%t.list -Rpass=spiketrap -g -O2 -c %s -o /dev/null 2>&1 | FileCheck %s

// The list spiketrap-report --suggest-list writes is one the next compile reads
// (-spiketrap-list): every suggested function, C++ names with glob and '='
// characters included, gets its suggested threshold from it.

#include "../Inputs/spin.h"

struct Zone {
  int id;
};
__attribute__((noinline)) void load_zone(Zone *z) { spin_ns(20000000); }
__attribute__((noinline)) Zone &operator+=(Zone &z, int) {
  spin_ns(3000000);
  return z;
}

int main() {
  Zone z{0};
  load_zone(&z);
  z += 1;
  return 0;
}

// CHECK-DAG: remark: instrumented 'load_zone(Zone*)' (list {{.*}}.list:{{[0-9]+}}): threshold {{[0-9]+}}ms (list
// CHECK-DAG: remark: instrumented 'operator+=(Zone&, int)' (list {{.*}}.list:{{[0-9]+}}): threshold {{[0-9]+}}ms (list
