// RUN: %clang %spiketrap_all -g -O2 -fPIC -shared %S/Inputs/preempt_lib.c -o %t.so
// RUN: %clang -g -O2 -fno-pic -no-pie %s %t.so %rtlib '-Wl,-rpath,$ORIGIN' -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// REQUIRES: switch-sites

// A non-PIE executable that takes the address of a library function gets a
// canonical PLT entry for it, and the library's own references to the
// symbol resolve there. The descriptor names its site through a local
// alias, fixed at link time: before, a dynamic PC32 relocation against the
// symbol resolved to the executable's PLT ("Symbol `lib_fn' causes overflow
// in R_X86_64_PC32 relocation") and the first timed call crashed. Seen on
// cJSON's tests (utils/realworld.sh).

#include <stdio.h>

int lib_fn(int);
int (*volatile Fn)(int);

int main(void) {
  Fn = lib_fn; // an absolute address in non-PIC code: the canonical PLT
  for (int I = 0; I < 10; ++I)
    Fn(I);
  printf("called\n");
  return 0;
}

// CHECK-NOT: overflow
// CHECK: called
// CHECK-NOT: spiketrap: fatal
