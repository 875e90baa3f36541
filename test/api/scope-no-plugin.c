// RUN: %clang -O2 -I%inc %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=50ms %run %t 2>&1 | FileCheck %s

// Manual scopes need no compiler support: a program built by plain clang,
// without the plugin, reports its marked function and nested sections, with
// the frame number and the message of each level (50 ms threshold: load).

#include "../Inputs/spin.h"
#include "spiketrap.h"

static void load_level(int Level) {
  SPIKETRAP_FUNCTION();
  SPIKETRAP_MESSAGEF("level %d", Level);
  {
    SPIKETRAP_SECTION("parse");
    {
      SPIKETRAP_SECTION("decompress");
      spin_ns(Level == 2 ? 200000000 : 0);
    }
  }
}

int main(void) {
  for (int Level = 0; Level < 3; ++Level) {
    SPIKETRAP_FRAME_MARK();
    load_level(Level);
  }
  return 0;
}

// CHECK: spike: {{[0-9.]+ m?s}} in decompress ({{.*}}scope-no-plugin.c:17), threshold 50.000 ms
// CHECK-NEXT: thread main (tid {{[0-9]+}}), frame 3,
// CHECK-NEXT: #0  load_level ({{.*}}scope-no-plugin.c:12)
// CHECK-NEXT: message: level 2
// CHECK-NEXT: #1  parse ({{.*}}) {{[0-9.]+}} ms > 50.000 ms
// CHECK-NEXT: #2  decompress ({{.*}}) {{[0-9.]+}} ms > 50.000 ms
// CHECK: spiketrap: 3 spikes
