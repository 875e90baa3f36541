; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -passes=spiketrap,spiketrap -spiketrap-instrument-all -S %s \
; RUN:   | FileCheck %s --check-prefix=TWICE

; A module with timed functions gives its shared object one destructor that
; tells the runtime the object is going away (whichever dlclose unloads it):
; hidden, linkonce in a comdat of its own, its .fini_array entry keyed to it,
; so the object keeps one however many modules bring it.

target triple = "x86_64-unknown-linux-gnu"

; CHECK: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__spiketrap_object_fini, ptr @__spiketrap_object_fini }]
; TWICE: @llvm.global_dtors = appending global [1 x

define void @timed() {
  ret void
}

; CHECK:      define linkonce_odr hidden void @__spiketrap_object_fini() #{{[0-9]+}} comdat {
; CHECK-NEXT:   call void @__spiketrap_object_unloading(ptr @__spiketrap_object_fini)
; CHECK-NEXT:   ret void
; TWICE:      define linkonce_odr hidden void @__spiketrap_object_fini()
; TWICE-NOT:  define {{.*}}@__spiketrap_object_fini
