; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s

; An exception out of a split function's body passes the exit hook: the
; timed path calls the body through an invoke of a cleanup pad that calls
; exit and resumes. The thunk itself only tail-jumps, so it has no pad.

target triple = "x86_64-unknown-linux-gnu"

declare void @_Z5throwv()

; CHECK-LABEL: define void @_Z4stepv() #{{[0-9]+}} {
; CHECK-NOT:     invoke
; CHECK-NOT:     landingpad
; The body's own call is left as it was.
; CHECK-LABEL: define internal void @_Z4stepv.spiketrap()
; CHECK-NEXT:    call void @_Z5throwv()
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @_Z4stepv.spiketrap_timed()
; CHECK-SAME:    personality ptr @__gxx_personality_v0 {
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc._Z4stepv,
; CHECK-NEXT:    invoke void @_Z4stepv.spiketrap()
; CHECK-NEXT:            to label %[[CONT:.*]] unwind label %spiketrap.unwind
; CHECK:       [[CONT]]:
; CHECK:         call void @__spiketrap_exit(ptr @__spiketrap_desc._Z4stepv.exit,
; CHECK-NEXT:    ret void
; CHECK:       spiketrap.unwind:
; CHECK-NEXT:    [[LP:%.*]] = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK:         call void @__spiketrap_exit(ptr @__spiketrap_desc._Z4stepv.exit,
; CHECK-NEXT:    resume { ptr, i32 } [[LP]]
define void @_Z4stepv() {
  call void @_Z5throwv()
  ret void
}
