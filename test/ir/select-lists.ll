; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=spiketrap -spiketrap-min-instructions=20 -spiketrap-list=%t/select.txt -S %t/code.ll | FileCheck %s
; RUN: %opt -passes=spiketrap -spiketrap-list=%t/select.txt -S %t/io.ll | FileCheck %s --check-prefix=SRC

; Each section of a filter list (LLVM's SpecialCaseList format) does what its
; name says to the functions its entries match: fun: by mangled or demangled
; name, src: by source file. Unmatched small functions keep the size rules.

; CHECK-DAG: @__spiketrap_desc._ZN4game5World4tickEv = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 16600000, i64 0, i32 0 } }
; CHECK-DAG: @__spiketrap_desc._ZN6script3runEv = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 0, i64 100000, i32 0 } }
; CHECK-DAG: @__spiketrap_desc.tiny = {{.*}} { i32 65536, {{.*}}, i32 0, i32 {{.*}} }
; CHECK-DAG: @__spiketrap_desc.quiet = {{.*}} { i32 65537, {{.*}}, i32 0, i32 {{.*}} }
; CHECK-DAG: @__spiketrap_desc.hush = {{.*}} { i32 65538, {{.*}}, i32 0, i32 {{.*}} }
; CHECK-NOT: @__spiketrap_desc.loopy
; CHECK-NOT: @__spiketrap_desc.unlisted
; SRC:       @__spiketrap_desc.read_all = {{.*}} { i32 65552, {{.*}} }, { i64, i64, i32 } { i64 2000000000, i64 0, i32 0 } }

;--- select.txt
# Demangled names (with a glob) and mangled names both match.
[threshold=16.6ms]
fun:game::World::tick*

[children-threshold=100us]
fun:_ZN6script3runEv

[always]
fun:tiny

[never]
fun:loopy

[ignore]
fun:quiet

[ignore-children]
fun:hush

[threshold=2s]
src:*/io/*.cpp

;--- code.ll
source_filename = "engine/game.cpp"
target triple = "x86_64-unknown-linux-gnu"

declare void @work()

define void @_ZN4game5World4tickEv() {
  call void @work()
  ret void
}

define void @_ZN6script3runEv() {
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

define void @unlisted() {
  call void @work()
  ret void
}

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

;--- io.ll
source_filename = "engine/io/files.cpp"
target triple = "x86_64-unknown-linux-gnu"

declare void @work()

define void @read_all() {
  call void @work()
  ret void
}
