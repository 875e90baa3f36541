// RUN: rm -rf %t && split-file %s %t
// RUN: %clang %spiketrap -g -O2 -I%S -mllvm -spiketrap-list=%t/spiketrap.txt \
// RUN:   %t/game.c %t/vendor/codec.c %rtlib -o %t/game
// RUN: %run %t/game 2>&1 | FileCheck %s

// A filter list gives code that cannot be edited its thresholds, end to end:
// every function of the vendored codec (src:) may take 200 ms, so its 4 ms
// decode is not reported, while the game's own 4 ms load is (global 1 ms);
// the list's never entry removes the noisy logger's hooks altogether.

// CHECK-NOT: spike:
// CHECK:     spike: {{[0-9.]+ m?s}} in load_level ({{.*}}game.c:{{[0-9]+}}), threshold 1.000 ms
// CHECK-NOT: spike:
// CHECK:     spiketrap: 1 spikes, 3 instrumented calls

//--- spiketrap.txt
[threshold=200ms]
src:*/vendor/*

[never]
fun:log_line

//--- vendor/codec.c
#include "../Inputs/spin.h"
void decode(void) { spin_ns(4000000); }

//--- game.c
#include "../Inputs/spin.h"
void decode(void);
__attribute__((noinline)) void log_line(void) { spin_ns(3000000); }
__attribute__((noinline)) void load_level(void) { spin_ns(4000000); }
int main(void) {
  decode();
  load_level();
  log_line();
  return 0;
}
