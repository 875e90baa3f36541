// RUN: %clangxx %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 > %t.O0.out 2>&1
// RUN: FileCheck %s --check-prefix=THROW < %t.O0.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.O0.out
// RUN: %clangxx %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 > %t.O2.out 2>&1
// RUN: FileCheck %s --check-prefix=THROW < %t.O2.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.O2.out

// An exception that unwinds through instrumented functions closes their
// frames (clang's -finstrument-functions does not): a function that spiked
// before throwing is reported, and what runs after the catch has a clean
// stack. Timed at patchable sites, their frames close where the exception
// is caught (__cxa_begin_catch), marked as left by an exception; with
// -spiketrap-switch=flag, their exit hooks run on the way out.

#include "../Inputs/spin.h"
#include <stdexcept>

__attribute__((noinline)) void thrower() {
  spin_ns(6000000);
  throw std::runtime_error("boom");
}
__attribute__((noinline)) void middle() { thrower(); }
__attribute__((noinline)) void after() { spin_ns(2000000); }
__attribute__((noinline)) void catcher() {
  try {
    middle();
  } catch (const std::exception &) {
  }
  after();
}

int main() { catcher(); }

// THROW: spike: {{.*}} in thrower() ({{.*}}exceptions.cpp:{{[0-9]+}})
// THROW: #0 main
// THROW-NEXT: #1 catcher() ({{.*}}) {{[0-9.]+}} ms > 1.000 ms
// THROW-NEXT: #2 middle() ({{.*}}) {{[0-9.]+}} ms > 1.000 ms
// THROW:      #3 thrower() ({{.*}}) {{[0-9.]+}} ms > 1.000 ms

// AFTER: spike: {{.*}} in after() ({{.*}}exceptions.cpp:
// AFTER: #0 main
// AFTER-NEXT: #1 catcher() ({{.*}}) {{[0-9.]+}} ms > 1.000 ms
// AFTER-NEXT: #2 after() ({{.*}}) {{[0-9.]+}} ms > 1.000 ms
