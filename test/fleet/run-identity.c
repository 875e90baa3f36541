// RUN: %clang %spiketrap_all -O1 -g -Wl,--build-id=sha1 %s %rtlib -o %t
// RUN: %clang %spiketrap_all -O1 -g -Wl,--build-id=none %s %rtlib -o %t.noid
// RUN: %clang %spiketrap_all -O1 -g -Wl,--build-id=sha1 -no-pie -fno-pie %s %rtlib -o %t.nopie
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.d/a.%%p.json" %run %t
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.d/b.%%p.json" %run %t
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.d/n.%%p.json" %run %t.noid
// RUN: env SPIKETRAP_OPTIONS="report=none report_json=%t.d/p.%%p.json" %run %t.nopie
// RUN: llvm-readelf -n %t | sed -n 's/.*Build ID: *//p' > %t.id
// RUN: llvm-readelf -n %t.nopie | sed -n 's/.*Build ID: *//p' > %t.nopie.id
// RUN: python3 %S/Inputs/check_identity.py %t %t.d | FileCheck %s
// RUN: %spiketrap_report validate %t.d/*.json | FileCheck %s --check-prefix=VALID

// Each run's JSON record says which run, host, program and build it is
// (docs/fleet.md): a run id of 128 random bits per process (a forked child
// is a run of its own; two runs of one program differ), the host name, the
// executable's path and its ELF build id ("" when linked without one; found
// in a position-dependent executable too).

#include "../Inputs/spin.h"
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void work(void) { spin_ns(3000000); }

int main(void) {
  work();
  pid_t child = fork();
  if (child == 0) {
    work();
    return 0;
  }
  waitpid(child, 0, 0);
  return 0;
}

// CHECK: reports: 8
// CHECK-NEXT: run ids: 8 distinct, all 32 hex digits
// CHECK-NEXT: host: the uname nodename in all
// CHECK-NEXT: program: the executable's path in all
// CHECK-NEXT: build_id: readelf's in all, "" in n.*
// CHECK-NEXT: frames: 0 in all

// VALID: 8 valid, 0 invalid
