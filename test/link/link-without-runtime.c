// RUN: not %clang %spiketrap -O2 %s -o %t 2>&1 | FileCheck %s

// Linking instrumented code without libspiketrap.a fails with an error that
// names spiketrap, not with a crash at run time.

int main(void) { return 0; }

// CHECK: undefined reference to `__spiketrap_
