; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s

; Declarations, available_externally and naked functions and the runtime's own
; functions are left alone; an ordinary function next to them is instrumented.
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define void @ordinary(
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_enter(ptr @__spiketrap_desc.ordinary
define void @ordinary() {
  call void @external()
  ret void
}

; CHECK: declare void @external(){{$}}
declare void @external()

; CHECK-LABEL: define available_externally i32 @inline_copy(
; CHECK-NEXT:    ret i32 0
define available_externally i32 @inline_copy() {
  ret i32 0
}

; CHECK-LABEL: define void @bare(
; CHECK-NEXT:    call void asm sideeffect "ret", ""()
; CHECK-NEXT:    unreachable
define void @bare() naked {
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK-LABEL: define void @__spiketrap_helper(
; CHECK-NEXT:    ret void
define void @__spiketrap_helper() {
  ret void
}

; namespace __spiketrap { void Stack::push(); }
; CHECK-LABEL: define void @_ZN11__spiketrap5Stack4pushEv(
; CHECK-NEXT:    ret void
define void @_ZN11__spiketrap5Stack4pushEv() {
  ret void
}

; Only the ordinary function got a descriptor and the marker.
; CHECK-NOT: "spiketrap-instrumented"
; CHECK: attributes #{{[0-9]+}} = { "disable-tail-calls"="true" "spiketrap-instrumented" }
; CHECK-NOT: "spiketrap-instrumented"
