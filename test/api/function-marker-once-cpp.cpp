// RUN: %clangxx %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap_all -O2 -c %s -o /dev/null -Rpass-missed=spiketrap 2>&1 | FileCheck %s --check-prefix=REMARK

// C++ (the RAII scope, inlined even at -O0): a function with a marker, compiled with the plugin, is
// timed by its marker alone: the pass adds no second, automatic frame, so
// the function is one level of the stack, not two.

#include "../Inputs/spin.h"
#include "spiketrap.h"

// REMARK: remark: {{.*}}'marked()'{{.*}}timed by its SPIKETRAP_FUNCTION marker
void marked() {
  SPIKETRAP_FUNCTION();
  spin_ns(3000000);
}

int main() {
  marked();
  return 0;
}

// CHECK: spike: {{.*}} in marked
// CHECK-NEXT: thread main
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 marked
// CHECK-NOT: #2
