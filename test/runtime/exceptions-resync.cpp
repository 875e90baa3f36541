// RUN: %clang %spiketrap_all -g -O2 -c %S/Inputs/c_apply.c -o %t.c.o
// RUN: %clangxx %spiketrap_all -g -O2 %s %t.c.o %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s

// When an exception skips a frame's exit hook (here: C code, compiled without
// exception support, between the throw and the catch), the runtime drops
// that frame at the next hook by its frame address: the call after the catch
// is reported with its real stack, not below the dead C frame.

#include "../Inputs/spin.h"
#include <stdexcept>

extern "C" void c_apply(void (*fn)(void));

__attribute__((noinline)) void callback() { throw std::runtime_error("boom"); }
__attribute__((noinline)) void after() { spin_ns(3000000); }
__attribute__((noinline)) void catcher() {
  try {
    c_apply(callback);
  } catch (const std::exception &) {
  }
  after();
}

int main() { catcher(); }

// CHECK: spike: {{.*}} in after()
// CHECK-NEXT: thread main
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 catcher()
// CHECK-NEXT: #2 after()
