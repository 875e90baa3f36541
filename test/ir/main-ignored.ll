; RUN: %opt -spiketrap-switch=flag -spiketrap-split-body=false -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s

; main is timed, so it stays a parent in every stack, but its descriptor
; carries SPIKETRAP_DESC_IGNORE (1): it runs for the whole program and would
; otherwise be reported as a spike at every exit. Other functions are not.
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; CHECK: @__spiketrap_desc.main = private constant { {{[^}]*}} } { i32 65537,
; CHECK: @__spiketrap_desc.not_main = private constant { {{[^}]*}} } { i32 65536,

define i32 @main() {
; CHECK-LABEL: define i32 @main()
; CHECK: call void @__spiketrap_enter(ptr @__spiketrap_desc.main
  ret i32 0
}

define void @not_main() {
; CHECK-LABEL: define void @not_main()
; CHECK: call void @__spiketrap_enter(ptr @__spiketrap_desc.not_main
  ret void
}
