// RUN: not %clang %spiketrap -c %s -o /dev/null 2>&1 | FileCheck %s

// Threshold values the IR cannot tell apart from valid ones unless read in
// full: an unsigned maximum (stored as -1), a boolean (an i1), a 128-bit
// number (5 in its low 64 bits), centuries, NaN. Each is an error naming the
// file and line and the function by its source name, never a truncated value.

#include <limits.h>
#include "spiketrap.h"

// CHECK: error: spiketrap: {{.*}}select-bad-annotation-values.c:[[@LINE+1]]: 'spiketrap.threshold_ms' must be greater than 0 and at most 86400000 (24 hours), not -1 (18446744073709551615 if unsigned) (on 'ullong_max')
SPIKETRAP_THRESHOLD_MS(ULLONG_MAX) void ullong_max(void) {}

// CHECK: error: spiketrap: {{.*}}select-bad-annotation-values.c:[[@LINE+1]]: 'spiketrap.threshold_ms' needs a number, not a boolean (on 'boolean')
SPIKETRAP_THRESHOLD_MS((_Bool)1) void boolean(void) {}

// CHECK: error: spiketrap: {{.*}}select-bad-annotation-values.c:[[@LINE+1]]: 'spiketrap.threshold_ms' must be at most 86400000 (24 hours), not 18446744073709551621 (on 'wide')
SPIKETRAP_THRESHOLD_MS(((__int128)1 << 64) + 5) void wide(void) {}

// CHECK: error: spiketrap: {{.*}}select-bad-annotation-values.c:[[@LINE+1]]: 'spiketrap.children_threshold_us' must be at most 86400000000 (24 hours), not 3.1536e+15 (on 'century')
SPIKETRAP_CHILDREN_THRESHOLD_US(1e6 * 86400 * 365 * 100) void century(void) {}

// CHECK: error: spiketrap: {{.*}}select-bad-annotation-values.c:[[@LINE+1]]: 'spiketrap.threshold_us' must be greater than 0, not nan (on 'not_a_number')
SPIKETRAP_THRESHOLD_US(__builtin_nan("")) void not_a_number(void) {}

// CHECK-NOT: error
// CHECK: 5 errors generated.
