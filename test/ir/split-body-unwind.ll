; RUN: %opt -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s

; An exception out of a split function's body passes the thunk's exit hook:
; the timed call of the body is an invoke of a cleanup pad that calls exit
; and resumes. The switched-off tail jump stays a musttail call.

target triple = "x86_64-unknown-linux-gnu"

declare void @_Z5throwv()

; CHECK-LABEL: define void @_Z4stepv()
; CHECK-SAME:    personality ptr @__gxx_personality_v0 {
; CHECK:       timed:
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc._Z4stepv,
; CHECK-NEXT:    invoke void @_Z4stepv.spiketrap()
; CHECK-NEXT:            to label %[[CONT:.*]] unwind label %spiketrap.unwind
; CHECK:       [[CONT]]:
; CHECK:         call void @__spiketrap_exit(ptr @__spiketrap_desc._Z4stepv,
; CHECK-NEXT:    ret void
; CHECK:       off:
; CHECK-NEXT:    musttail call void @_Z4stepv.spiketrap()
; CHECK-NEXT:    ret void
; CHECK:       spiketrap.unwind:
; CHECK-NEXT:    [[LP:%.*]] = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK:         call void @__spiketrap_exit(ptr @__spiketrap_desc._Z4stepv,
; CHECK-NEXT:    resume { ptr, i32 } [[LP]]
; The body's own call is left as it was.
; CHECK-LABEL: define internal void @_Z4stepv.spiketrap()
; CHECK-NEXT:    call void @_Z5throwv()
; CHECK-NEXT:    ret void
define void @_Z4stepv() {
  call void @_Z5throwv()
  ret void
}
