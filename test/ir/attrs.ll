; RUN: %opt -spiketrap-switch=flag -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s

; The hooks access memory and synchronize, so attributes inferred from the body
; before instrumentation are dropped: otherwise later passes (or LTO) could
; delete or merge calls to the instrumented function. Its body, moved out of
; line, carries the same set (and noinline).
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; CHECK: define i32 @pure(i32 %0) #[[ATTRS:[0-9]+]] {
; CHECK: define internal i32 @pure.spiketrap(i32 %x) unnamed_addr #[[BODY:[0-9]+]] {
define i32 @pure(i32 %x) nofree norecurse nosync nounwind willreturn memory(none) {
  %y = add i32 %x, 1
  ret i32 %y
}

; CHECK: attributes #[[ATTRS]] = { norecurse nounwind "spiketrap-instrumented" }
; CHECK: attributes #[[BODY]] = { noinline norecurse nounwind "spiketrap-instrumented" }
