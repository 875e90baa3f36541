; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=spiketrap -spiketrap-list=%t/first.txt -spiketrap-list=%t/second.txt \
; RUN:   -S %t/code.ll | FileCheck %s
; RUN: %opt -passes=spiketrap -spiketrap-list=%t/first.txt,%t/second.txt -spiketrap-instrument-all \
; RUN:   -S %t/code.ll | FileCheck %s
; RUN: %opt -passes=spiketrap -S %t/main-threshold.ll | FileCheck %s --check-prefix=MAIN-THRESHOLD
; RUN: %opt -passes=spiketrap -S %t/main-never.ll | FileCheck %s --check-prefix=MAIN-NEVER

; Precedence: what cannot be instrumented (naked) > never (attribute, list or
; xray_never_instrument) > always or any explicit setting > instrument-all >
; size rules. For the same setting an attribute beats a list, a later list
; file beats an earlier one and a later line beats an earlier one; settings
; of different kinds combine. main is ignored by default unless it is given a
; threshold, and can be excluded like any function.

; Never beats always, whichever of attribute and list says which.
; CHECK-NOT: @__spiketrap_desc.never_attr_always_list =
; CHECK-NOT: @__spiketrap_desc.never_list_always_attr =
; CHECK-NOT: @__spiketrap_desc.xray_never_always_attr =
; CHECK-NOT: @__spiketrap_desc.naked_always =
; The attribute's 16.6 ms beats the list's 5 ms.
; CHECK-DAG: @__spiketrap_desc.attr_over_list = {{.*}} { i32 65552, {{.*}} { i64 16600000, i64 0,
; second.txt's 7 ms beats first.txt's 5 ms; in one file, line 5 beats line 2.
; CHECK-DAG: @__spiketrap_desc.later_file = {{.*}} { i32 65552, {{.*}} { i64 7000000, i64 0,
; CHECK-DAG: @__spiketrap_desc.later_line = {{.*}} { i32 65552, {{.*}} { i64 9000000, i64 0,
; The attribute's ignore and the list's threshold and children threshold combine.
; CHECK-DAG: @__spiketrap_desc.combined = {{.*}} { i32 65553, {{.*}} { i64 5000000, i64 300000,

; MAIN-THRESHOLD: @__spiketrap_desc.main = {{.*}} { i32 65552, {{.*}} { i64 100000000, i64 0,
; MAIN-NEVER-NOT: @__spiketrap_desc.main

;--- first.txt
[threshold=5ms]
fun:later_line
fun:attr_over_list
fun:later_file
[threshold=9ms]
fun:later_line
[always]
fun:never_attr_always_list
fun:xray_never_always_attr

;--- second.txt
[never]
fun:never_list_always_attr
[threshold=7ms]
fun:later_file
[threshold=5ms]
fun:combined
[children-threshold=300us]
fun:combined

;--- code.ll
target triple = "x86_64-unknown-linux-gnu"

@never = private constant [16 x i8] c"spiketrap.never\00", section "llvm.metadata"
@always = private constant [17 x i8] c"spiketrap.always\00", section "llvm.metadata"
@ignore = private constant [17 x i8] c"spiketrap.ignore\00", section "llvm.metadata"
@thr_ms = private constant [23 x i8] c"spiketrap.threshold_ms\00", section "llvm.metadata"
@file = private constant [6 x i8] c"pre.c\00", section "llvm.metadata"
@args.16.6 = private constant { double } { double 1.660000e+01 }, section "llvm.metadata"

@llvm.global.annotations = appending global [6 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @never_attr_always_list, ptr @never, ptr @file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @never_list_always_attr, ptr @always, ptr @file, i32 2, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @xray_never_always_attr, ptr @always, ptr @file, i32 3, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @naked_always, ptr @always, ptr @file, i32 4, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @attr_over_list, ptr @thr_ms, ptr @file, i32 5, ptr @args.16.6 },
  { ptr, ptr, ptr, i32, ptr } { ptr @combined, ptr @ignore, ptr @file, i32 6, ptr null }
], section "llvm.metadata"

declare void @work()

define void @never_attr_always_list() {
  call void @work()
  ret void
}

define void @never_list_always_attr() {
  call void @work()
  ret void
}

define void @xray_never_always_attr() "function-instrument"="xray-never" {
  call void @work()
  ret void
}

define void @naked_always() naked {
  call void asm sideeffect "ret", ""()
  unreachable
}

define void @attr_over_list() {
  call void @work()
  ret void
}

define void @later_file() {
  call void @work()
  ret void
}

define void @later_line() {
  call void @work()
  ret void
}

define void @combined() {
  call void @work()
  ret void
}

;--- main-threshold.ll
target triple = "x86_64-unknown-linux-gnu"

@thr_ms = private constant [23 x i8] c"spiketrap.threshold_ms\00", section "llvm.metadata"
@file = private constant [7 x i8] c"main.c\00", section "llvm.metadata"
@args.100 = private constant { i32 } { i32 100 }, section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @main, ptr @thr_ms, ptr @file, i32 1, ptr @args.100 }
], section "llvm.metadata"

define i32 @main() {
  ret i32 0
}

;--- main-never.ll
target triple = "x86_64-unknown-linux-gnu"

@never = private constant [16 x i8] c"spiketrap.never\00", section "llvm.metadata"
@file = private constant [7 x i8] c"main.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @main, ptr @never, ptr @file, i32 1, ptr null }
], section "llvm.metadata"

define i32 @main() {
  ret i32 0
}
