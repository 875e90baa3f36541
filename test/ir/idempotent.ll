; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap,spiketrap -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap -spiketrap-instrument-all %s | %opt -spiketrap-switch=flag -passes=spiketrap -spiketrap-instrument-all -S | FileCheck %s

; Running the pass again, in the same pipeline or on its output, adds nothing:
; one pair of hooks, one descriptor, one marker reference.
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; CHECK:     @__spiketrap_desc.once = private
; CHECK-NOT: {{^}}@__spiketrap_desc
; CHECK:     @__spiketrap_abi_ref = private
; CHECK-NOT: @__spiketrap_abi_ref
; CHECK:     @llvm.compiler.used = appending global [1 x ptr] [ptr @__spiketrap_abi_ref]

; CHECK-LABEL: define void @once(
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_enter(
; CHECK-NEXT:    call void @work()
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_exit(
; CHECK-NEXT:    ret void
define void @once() {
  call void @work()
  ret void
}

declare void @work()
