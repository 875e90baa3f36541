; RUN: not %clang %spiketrap --target=x86_64-unknown-linux-gnu -c %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s
; RUN: not %opt -passes=spiketrap -disable-output %s 2>&1 | FileCheck %s --check-prefix=OPT

; A malformed spiketrap annotation is a compile error naming the file and line
; stored with it, the problem and the function; clang reports every one (opt
; stops at the first error), and another tool's annotation is not ours to judge.

; OPT:     error: spiketrap: frame.c:11: unknown annotation
; OPT-NOT: error

target triple = "x86_64-unknown-linux-gnu"

@key.typo = private constant [22 x i8] c"spiketrap.treshold_ms\00", section "llvm.metadata"
@key.thr_ms = private constant [23 x i8] c"spiketrap.threshold_ms\00", section "llvm.metadata"
@key.thr_us = private constant [23 x i8] c"spiketrap.threshold_us\00", section "llvm.metadata"
@key.always = private constant [17 x i8] c"spiketrap.always\00", section "llvm.metadata"
@key.other = private constant [12 x i8] c"other.thing\00", section "llvm.metadata"
@file = private constant [8 x i8] c"frame.c\00", section "llvm.metadata"
@args.16.6 = private constant { double } { double 1.660000e+01 }, section "llvm.metadata"
@args.neg = private constant { i32 } { i32 -5 }, section "llvm.metadata"
@args.zero = private constant { double } zeroinitializer, section "llvm.metadata"
@args.two = private constant { i32, i32 } { i32 1, i32 2 }, section "llvm.metadata"
@args.str = private constant { ptr } { ptr @file }, section "llvm.metadata"
@global = global i32 0

@llvm.global.annotations = appending global [9 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.typo, ptr @file, i32 11, ptr @args.16.6 },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.thr_ms, ptr @file, i32 12, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.thr_us, ptr @file, i32 13, ptr @args.neg },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.thr_ms, ptr @file, i32 14, ptr @args.zero },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.thr_ms, ptr @file, i32 15, ptr @args.two },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.thr_ms, ptr @file, i32 16, ptr @args.str },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.always, ptr @file, i32 17, ptr @args.16.6 },
  { ptr, ptr, ptr, i32, ptr } { ptr @global, ptr @key.always, ptr @file, i32 18, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @f, ptr @key.other, ptr @file, i32 19, ptr @args.neg }
], section "llvm.metadata"

; CHECK:      error: spiketrap: frame.c:11: unknown annotation 'spiketrap.treshold_ms'; use the SPIKETRAP_* macros of spiketrap.h (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:12: 'spiketrap.threshold_ms' needs one number (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:13: 'spiketrap.threshold_us' must be greater than 0 and at most 86400000000 (24 hours), not -5 (4294967291 if unsigned) (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:14: 'spiketrap.threshold_ms' must be greater than 0, not 0 (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:15: 'spiketrap.threshold_ms' needs one number (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:16: 'spiketrap.threshold_ms' needs one number (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:17: 'spiketrap.always' takes no value (on 'f')
; CHECK-NEXT: error: spiketrap: frame.c:18: 'spiketrap.always' applies to functions only (on 'global')
; CHECK-NEXT: 8 errors generated.
define void @f() {
  ret void
}
