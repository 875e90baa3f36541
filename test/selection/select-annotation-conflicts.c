// RUN: not %clang %spiketrap -c %s -o /dev/null 2>&1 | FileCheck %s

// Two attributes of one function that disagree are a compile error naming
// the file and line, not resolved silently by whichever the pass read last;
// the same value twice is a warning. A threshold below 1 ns is a unit
// mistaken (it was taken as 1 ns).

#include "spiketrap.h"

// CHECK: error: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.threshold_ms' (10) conflicts with 'spiketrap.threshold_ms' (5); keep one (on 'two_thresholds')
SPIKETRAP_THRESHOLD_MS(5) SPIKETRAP_THRESHOLD_MS(10) void two_thresholds(void) {}

// CHECK: error: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.threshold_us' (20000) conflicts with 'spiketrap.threshold_ms' (5); keep one (on 'two_units')
SPIKETRAP_THRESHOLD_MS(5) SPIKETRAP_THRESHOLD_US(20000) void two_units(void) {}

// CHECK: error: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.always' contradicts 'spiketrap.never'; keep one (on 'never_always')
SPIKETRAP_NEVER SPIKETRAP_ALWAYS void never_always(void) {}

// CHECK: error: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.never' contradicts 'spiketrap.children_threshold_ms' (2); keep one (on 'threshold_never')
SPIKETRAP_CHILDREN_THRESHOLD_MS(2) SPIKETRAP_NEVER void threshold_never(void) {}

// CHECK: error: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.ignore' contradicts 'spiketrap.no_instrument_function'; keep one (on 'not_instrumented_ignored')
__attribute__((annotate("spiketrap.no_instrument_function"))) SPIKETRAP_IGNORE void not_instrumented_ignored(void) {}

// CHECK: warning: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.threshold_us' (5000) repeats 'spiketrap.threshold_ms' (5); keep one (on 'same_twice')
SPIKETRAP_THRESHOLD_MS(5) SPIKETRAP_THRESHOLD_US(5000) void same_twice(void) {}

// CHECK: error: spiketrap: {{.*}}select-annotation-conflicts.c:[[@LINE+1]]: 'spiketrap.threshold_us' must be at least 0.001 (1 ns), not 1e-09 (on 'below_ns')
SPIKETRAP_THRESHOLD_US(1e-9) void below_ns(void) {}

// Settings that do not overlap are fine.
SPIKETRAP_THRESHOLD_MS(5) SPIKETRAP_CHILDREN_THRESHOLD_MS(2) SPIKETRAP_IGNORE void fine(void) {}

// CHECK-NOT: {{error|warning}}
// CHECK: 1 warning and 6 errors generated.
