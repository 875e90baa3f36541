// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2>&1 | FileCheck %s
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: python3 -m json.tool --compact %t.json | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: windows
// (Windows: pipes and the C library's waiting calls.)

// Calls still open on other threads when the program exits are listed in
// the report (uftrace's "remaining functions"), with how long each had been
// open, in the text report and the JSON.

#include "../Inputs/spin.h"
#include "Inputs/blocked_worker.h"

__attribute__((noinline)) void spike(void) { spin_ns(30000000); }

// CHECK: calls open when this report was written, with how long each had been open:
// CHECK-NEXT: open: thread {{.*}} (tid {{[0-9]+}}): worker_main {{[0-9.]+ [mun]?s}} > wait_forever {{[0-9.]+ [mun]?s}}
// CHECK-NOT: open: thread main
// VALID: 1 valid, 0 invalid
// JSON: "open":[{"run":0,"tid":{{[0-9]+}},"thread":"{{[^"]*}}","at_ns":{{[0-9]+}},"stack":[{"function":{{[0-9]+}},"start_ns":{{[0-9]+}}},{"function":{{[0-9]+}},"start_ns":{{[0-9]+}}}]}]
int main(void) {
  if (start_blocked_worker())
    return 1;
  spike(); // something to report
  return 0;
}
