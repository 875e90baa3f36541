// RUN: %clang %spiketrap -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none:report_json=%t.json %run %t
// RUN: python3 %S/Inputs/grant-budget.py %t.json | FileCheck %s

// Keeping a function timed after its spike is granted from one budget (8
// grants at once, then about 8 a second): when 64 hot functions spike one
// after the other within ~0.2 s, about 10 stay timed and the rest are
// switched off at their next look, instead of all 64 (a loaded machine's
// preemptions make spikes in every hot function). Margins: 8 to 30 kept.

#include "../Inputs/spin.h"

static volatile unsigned Sink;
#define HOT(N)                                                                 \
  __attribute__((noinline)) void hot##N(int Slow) {                            \
    for (int K = 0; K < 8; ++K)                                                \
      Sink += K;                                                               \
    if (Slow)                                                                  \
      spin_ns(3000000);                                                        \
  }
#define HOT8(N)                                                                \
  HOT(N##0) HOT(N##1) HOT(N##2) HOT(N##3) HOT(N##4) HOT(N##5) HOT(N##6) HOT(N##7)
HOT8(1) HOT8(2) HOT8(3) HOT8(4) HOT8(5) HOT8(6) HOT8(7) HOT8(8)

#define CALL8(N, S)                                                            \
  hot##N##0(S), hot##N##1(S), hot##N##2(S), hot##N##3(S), hot##N##4(S),        \
      hot##N##5(S), hot##N##6(S), hot##N##7(S)
#define CALL64(S)                                                              \
  CALL8(1, S), CALL8(2, S), CALL8(3, S), CALL8(4, S), CALL8(5, S),             \
      CALL8(6, S), CALL8(7, S), CALL8(8, S)

// The hot functions' caller: main's callees stay timed (docs/selection.md).
__attribute__((noinline)) void run(void) {
  CALL64(1); // each spikes once: the first 8 or so are kept timed
  for (int I = 0; I < 20000; ++I)
    CALL64(0);
}

int main(void) {
  run();
  return 0;
}

// CHECK: kept timed: {{[89]|[12][0-9]|30}} of 64
