; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s

; Nothing may sit between a musttail call and its ret, so the exit hook goes
; before the call.
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

declare i32 @callee(i32)

; CHECK-LABEL: define i32 @caller(
; CHECK:         call void @__spiketrap_enter(
; CHECK-NEXT:    [[F:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_exit(ptr @__spiketrap_desc.caller, ptr [[F]])
; CHECK-NEXT:    %r = musttail call i32 @callee(i32 %x)
; CHECK-NEXT:    ret i32 %r
define i32 @caller(i32 %x) {
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}
