// RUN: %clang %spiketrap %spiketrap_clang -std=gnu2x -O1 -c %s -o /dev/null \
// RUN:   -Rpass=spiketrap -Rpass-missed=spiketrap 2>&1 | FileCheck %s

// In C, the GNU spelling and the C23 [[spiketrap::x]] spelling work too.

#include <time.h>

// CHECK-DAG: remark: instrumented 'c23' (attribute at {{.*}}): threshold 3ms (attribute at
[[spiketrap::threshold_ms(3)]] void c23(void) { nanosleep(0, 0); }
// CHECK-DAG: remark: instrumented 'gnu' (attribute at {{.*}}): threshold 7us (attribute at
__attribute__((spiketrap_threshold_us(7))) void gnu(void) { nanosleep(0, 0); }
// CHECK-DAG: remark: not instrumented 'off': never (attribute at
void off(void) __attribute__((spiketrap_never));
void off(void) { nanosleep(0, 0); }
// CHECK-DAG: remark: not instrumented 'legacy': never (no_instrument_function at
__attribute__((no_instrument_function)) void legacy(void) { nanosleep(0, 0); }
