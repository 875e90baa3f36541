// RUN: rm -rf %t && mkdir %t
// RUN: %clangxx %spiketrap -O1 -S -emit-llvm %s -o %t/macro.ll -Rpass=spiketrap -Rpass-missed=spiketrap 2> %t/macro.txt
// RUN: %clangxx %spiketrap %spiketrap_clang -DSPELLING=1 -O1 -S -emit-llvm %s -o %t/cxx.ll -Rpass=spiketrap -Rpass-missed=spiketrap 2> %t/cxx.txt
// RUN: %clangxx %spiketrap %spiketrap_clang -DSPELLING=2 -O1 -S -emit-llvm %s -o %t/gnu.ll -Rpass=spiketrap -Rpass-missed=spiketrap 2> %t/gnu.txt
// RUN: diff %t/macro.txt %t/cxx.txt
// RUN: diff %t/macro.txt %t/gnu.txt
// RUN: grep '^@__spiketrap_desc' %t/macro.ll > %t/macro.desc
// RUN: grep '^@__spiketrap_desc' %t/cxx.ll > %t/cxx.desc
// RUN: grep '^@__spiketrap_desc' %t/gnu.ll > %t/gnu.desc
// RUN: diff %t/macro.desc %t/cxx.desc
// RUN: diff %t/macro.desc %t/gnu.desc
// RUN: FileCheck %s < %t/cxx.txt
// RUN: FileCheck %s --check-prefix=DESC < %t/cxx.desc
// RUN: FileCheck %s --check-prefix=IR < %t/gnu.ll

// Each attribute of the front-end plugin, in its C++ ([[spiketrap::x]]) and
// GNU (__attribute__((spiketrap_x))) spelling, does exactly what the
// SPIKETRAP_* macro of the same name does: the same remarks and the same
// descriptors.

#include "spiketrap.h"
#include <unistd.h>

#if SPELLING == 1
#define THRESHOLD_MS(v) [[spiketrap::threshold_ms(v)]]
#define THRESHOLD_US(v) [[spiketrap::threshold_us(v)]]
#define CHILDREN_THRESHOLD_MS(v) [[spiketrap::children_threshold_ms(v)]]
#define CHILDREN_THRESHOLD_US(v) [[spiketrap::children_threshold_us(v)]]
#define ALWAYS [[spiketrap::always]]
#define NEVER [[spiketrap::never]]
#define IGNORE [[spiketrap::ignore]]
#define IGNORE_CHILDREN [[spiketrap::ignore_children]]
#define CHANNEL(n) [[spiketrap::channel(n)]]
#elif SPELLING == 2
#define THRESHOLD_MS(v) __attribute__((spiketrap_threshold_ms(v)))
#define THRESHOLD_US(v) __attribute__((spiketrap_threshold_us(v)))
#define CHILDREN_THRESHOLD_MS(v) __attribute__((spiketrap_children_threshold_ms(v)))
#define CHILDREN_THRESHOLD_US(v) __attribute__((spiketrap_children_threshold_us(v)))
#define ALWAYS __attribute__((spiketrap_always))
#define NEVER __attribute__((spiketrap_never))
#define IGNORE __attribute__((spiketrap_ignore))
#define IGNORE_CHILDREN __attribute__((spiketrap_ignore_children))
#define CHANNEL(n) __attribute__((spiketrap_channel(n)))
#else
#define THRESHOLD_MS SPIKETRAP_THRESHOLD_MS
#define THRESHOLD_US SPIKETRAP_THRESHOLD_US
#define CHILDREN_THRESHOLD_MS SPIKETRAP_CHILDREN_THRESHOLD_MS
#define CHILDREN_THRESHOLD_US SPIKETRAP_CHILDREN_THRESHOLD_US
#define ALWAYS SPIKETRAP_ALWAYS
#define NEVER SPIKETRAP_NEVER
#define IGNORE SPIKETRAP_IGNORE
#define IGNORE_CHILDREN SPIKETRAP_IGNORE_CHILDREN
#define CHANNEL SPIKETRAP_CHANNEL
#endif

constexpr double kFrameMs = 16.6;

// CHECK-DAG: remark: instrumented 'frame()' (attribute at {{.*}}): threshold 16.6ms (attribute at
THRESHOLD_MS(kFrameMs) void frame() { usleep(1); }
// CHECK-DAG: remark: instrumented 'io()' (attribute at {{.*}}): threshold 500us (attribute at
THRESHOLD_US(500) void io() { usleep(1); }
// CHECK-DAG: remark: instrumented 'script()' (attribute at {{.*}}): threshold inherited {{.*}}; children threshold 2ms (attribute at
CHILDREN_THRESHOLD_MS(2) void script() { usleep(1); }
// CHECK-DAG: remark: instrumented 'load()' (attribute at {{.*}}): threshold inherited {{.*}}; children threshold 250us (attribute at
CHILDREN_THRESHOLD_US(250.0f) void load() { usleep(1); }
// CHECK-DAG: remark: instrumented 'leaf()' (attribute at
ALWAYS int leaf() { return 1; }
// CHECK-DAG: remark: not instrumented 'log_line()': never (attribute at
NEVER void log_line() { usleep(1); }
// CHECK-DAG: remark: instrumented 'loop()' (attribute at {{.*}}); never reported (attribute at
IGNORE void loop() { usleep(1); }
// CHECK-DAG: remark: instrumented 'physics()' (attribute at {{.*}}); callees never reported (attribute at
IGNORE_CHILDREN void physics() { usleep(1); }
// CHECK-DAG: remark: instrumented 'mix()' (makes calls)
CHANNEL("audio") void mix() { usleep(1); }

// Several on one function, and on a declaration before the definition.
THRESHOLD_MS(5) IGNORE_CHILDREN void both();
// CHECK-DAG: remark: instrumented 'both()' (attribute at {{.*}}): threshold 5ms (attribute at {{.*}}); callees never reported (attribute at
void both() { usleep(1); }

// DESC-DAG: @__spiketrap_desc._Z5framev = {{.*}} i64 16600000,
// mix: RELATIVE | EXTENDED | CHANNEL | LOCATED (-Rpass tracks locations),
// and WAITS_KERNEL (it sleeps).
// DESC-DAG: @__spiketrap_desc._Z3mixv = {{.*}} { i32 720916,
// IR: c"audio\00"
