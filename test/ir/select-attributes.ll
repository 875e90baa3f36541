; RUN: %opt -passes=spiketrap -spiketrap-min-instructions=20 -S %s | FileCheck %s

; Each SPIKETRAP_* attribute (clang's annotate, as spiketrap.h spells it)
; reaches the function's descriptor: thresholds in ns from ms or us, int or
; floating-point; ignore flags (1, 2); always and the rest instrument small
; functions the size rules would skip; never leaves a loop alone; another
; tool's annotation changes nothing.

target triple = "x86_64-unknown-linux-gnu"

@key.thr_ms = private constant [23 x i8] c"spiketrap.threshold_ms\00", section "llvm.metadata"
@key.thr_us = private constant [23 x i8] c"spiketrap.threshold_us\00", section "llvm.metadata"
@key.child_ms = private constant [32 x i8] c"spiketrap.children_threshold_ms\00", section "llvm.metadata"
@key.child_us = private constant [32 x i8] c"spiketrap.children_threshold_us\00", section "llvm.metadata"
@key.always = private constant [17 x i8] c"spiketrap.always\00", section "llvm.metadata"
@key.ignore = private constant [17 x i8] c"spiketrap.ignore\00", section "llvm.metadata"
@key.ignore_children = private constant [26 x i8] c"spiketrap.ignore_children\00", section "llvm.metadata"
@key.never = private constant [16 x i8] c"spiketrap.never\00", section "llvm.metadata"
@key.other = private constant [13 x i8] c"someone.else\00", section "llvm.metadata"
@file = private constant [6 x i8] c"ann.c\00", section "llvm.metadata"
@args.16.6 = private constant { double } { double 1.660000e+01 }, section "llvm.metadata"
@args.100 = private constant { i32 } { i32 100 }, section "llvm.metadata"
@args.0.1f = private constant { float } { float 0x3FB99999A0000000 }, section "llvm.metadata"
@args.250 = private constant { i32 } { i32 250 }, section "llvm.metadata"

@llvm.global.annotations = appending global [9 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @frame, ptr @key.thr_ms, ptr @file, i32 2, ptr @args.16.6 },
  { ptr, ptr, ptr, i32, ptr } { ptr @script, ptr @key.thr_us, ptr @file, i32 3, ptr @args.100 },
  { ptr, ptr, ptr, i32, ptr } { ptr @interp, ptr @key.child_ms, ptr @file, i32 4, ptr @args.0.1f },
  { ptr, ptr, ptr, i32, ptr } { ptr @interp_us, ptr @key.child_us, ptr @file, i32 5, ptr @args.250 },
  { ptr, ptr, ptr, i32, ptr } { ptr @tiny, ptr @key.always, ptr @file, i32 6, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @quiet, ptr @key.ignore, ptr @file, i32 7, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @hush, ptr @key.ignore_children, ptr @file, i32 8, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @loopy, ptr @key.never, ptr @file, i32 9, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @small, ptr @key.other, ptr @file, i32 10, ptr null }
], section "llvm.metadata"

;                                            flags  state  name  callees  entry  threshold  children
; CHECK-DAG: @__spiketrap_desc.frame = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 16600000, i64 0, i32 0 } }
; CHECK-DAG: @__spiketrap_desc.script = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 100000, i64 0, i32 0 } }
; CHECK-DAG: @__spiketrap_desc.interp = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 0, i64 100000, i32 0 } }
; CHECK-DAG: @__spiketrap_desc.interp_us = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 0, i64 250000, i32 0 } }
; CHECK-DAG: @__spiketrap_desc.tiny = {{.*}} { i32 65536, i32 trunc {{.*}}, i32 trunc {{.*}}, i32 0, i32 {{.*}} }
; CHECK-DAG: @__spiketrap_desc.quiet = {{.*}} { i32 65537, i32 trunc {{.*}}, i32 trunc {{.*}}, i32 0, i32 {{.*}} }
; CHECK-DAG: @__spiketrap_desc.hush = {{.*}} { i32 65538, i32 trunc {{.*}}, i32 trunc {{.*}}, i32 0, i32 {{.*}} }
; CHECK-NOT: @__spiketrap_desc.loopy
; CHECK-NOT: @__spiketrap_desc.small

declare void @work()

define void @frame() {
  call void @work()
  ret void
}

define void @script() {
  call void @work()
  ret void
}

define void @interp() {
  call void @work()
  ret void
}

define void @interp_us() {
  call void @work()
  ret void
}

define void @tiny() {
  call void @work()
  ret void
}

define void @quiet() {
  call void @work()
  ret void
}

define void @hush() {
  call void @work()
  ret void
}

; CHECK-LABEL: define void @loopy(
; CHECK-NOT:   __spiketrap_enter
; CHECK:       ret void
define void @loopy(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @work()
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; CHECK-LABEL: define void @small(
; CHECK-NEXT:    call void @work()
define void @small() {
  call void @work()
  ret void
}
