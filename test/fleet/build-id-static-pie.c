// Sanitizers do not link statically; a static program under qemu-user is not
// what this checks.
// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// RUN: %clang %spiketrap_all -O1 -g -Wl,--build-id=sha1 -static-pie %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS="report_json=%t.json" %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: llvm-readelf -n %t | sed -n 's/.*Build ID: *//p' > %t.id
// RUN: python3 %S/../Inputs/report_json.py build-id %t.json %t.id | FileCheck %s --check-prefix=ID

// A static PIE has no PT_PHDR, which the build-id reader took its load
// address from: it read the notes at their unrelocated address and crashed
// before main. Its PT_DYNAMIC (_DYNAMIC) gives the load address instead.

#include "../Inputs/spin.h"

__attribute__((noinline)) void work(void) { spin_ns(3000000); }

// CHECK: spike: {{.*}} in work
// ID: build_id readelf
int main(void) {
  work();
  return 0;
}
