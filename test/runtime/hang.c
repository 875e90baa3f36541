// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=hang_after=200ms:report_json=%t.json %run %t %t.err 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: python3 -m json.tool --compact %t.json | FileCheck %s --check-prefix=JSON
// RUN: env -u SPIKETRAP_OPTIONS %run %t 2>&1 | FileCheck %s --check-prefix=OFF

// A call that makes no instrumented call for hang_after is reported while it
// is still stuck (stuck() returns only once the report is in the file its
// stderr goes to: no timing luck), with its open stack, and again when it
// returns, with its real duration.

#define _GNU_SOURCE
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "Inputs/logged.h"

__attribute__((always_inline)) static inline void nap(void) {
  struct timespec T = {0, 10 * 1000000};
  nanosleep(&T, NULL);
}

// CHECK: spiketrap: hang: thread main (tid {{[0-9]+}}) has been in stuck ({{.*}}hang.c:{{[0-9]+}}) for {{.*}} and is still there; open stack:
// CHECK-NEXT: #0  main ({{.*}}hang.c
// CHECK-NEXT: #1  waiting_room ({{.*}}hang.c
// CHECK-NEXT: #2  stuck ({{.*}}hang.c
// CHECK: spiketrap: stuck returned
// VALID: 1 valid, 0 invalid
// JSON: "totals":{"spikes":{{[0-9]+}},"hangs":1,
// JSON: "hangs":[{"id":0,"run":0,"tid":{{[0-9]+}},"thread":"main","function":{{[0-9]+}},"start_ns":{{[0-9]+}},"seen_ns":{{[0-9]+}},"stuck_ns":{{[0-9]+}},"returned_spike":{{[0-9]+}},"stack":[{"function"
// OFF-NOT: spiketrap: hang
__attribute__((noinline)) void stuck(void) {
  for (int I = 0; I < (Log ? 3000 : 30) && !(Log && logged("is still there"));
       ++I)
    nap(); // 30 s at most
  fprintf(stderr, "spiketrap: stuck returned\n");
}

__attribute__((noinline)) void waiting_room(void) { stuck(); }

// Signs of life: calls that return, until the watchdog has seen the return.
__attribute__((noinline)) void tick(void) { nap(); }

// CHECK: spiketrap: hang over: thread main (tid {{[0-9]+}}): stuck ({{.*}}) returned after {{[0-9.]+}} {{m?s}}
int main(int Argc, char **Argv) {
  Log = Argc > 1 ? Argv[1] : NULL;
  waiting_room();
  for (int I = 0; I < 3000 && Log && !logged("hang over"); ++I)
    tick();
  return 0;
}

// The report at exit lists the hang, with the duration of its return.
// CHECK: hang: stuck ({{.*}}) showed no sign of life for {{.*}}, thread main (tid {{[0-9]+}}), {{.*}} after start; it returned after
// CHECK-NEXT: #0  main
// CHECK: spiketrap: {{[0-9]+}} spikes, 1 hangs,
