// RUN: not %clang %spiketrap -c %s -o /dev/null 2>&1 | FileCheck %s

// A misspelt or out-of-range attribute stops the compile with an error that
// names the file and line of the function it is on, instead of being
// silently ignored.

#include "spiketrap.h"

// CHECK: error: spiketrap: {{.*}}select-bad-annotation.c:[[@LINE+1]]: unknown annotation 'spiketrap.treshold_ms'; use the SPIKETRAP_* macros of spiketrap.h (on 'typo')
__attribute__((annotate("spiketrap.treshold_ms", 16.6))) void typo(void) {}

// CHECK: error: spiketrap: {{.*}}select-bad-annotation.c:[[@LINE+1]]: 'spiketrap.threshold_ms' must be greater than 0, not -16.6 (on 'negative')
SPIKETRAP_THRESHOLD_MS(-16.6) void negative(void) {}

// CHECK: error: spiketrap: {{.*}}select-bad-annotation.c:[[@LINE+1]]: 'spiketrap.children_threshold_us' needs one number (on 'missing')
__attribute__((annotate("spiketrap.children_threshold_us"))) void missing(void) {}

// CHECK: 3 errors generated.
