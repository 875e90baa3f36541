; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -spiketrap-instrument-all -passes=spiketrap -S %s | FileCheck %s

; An exception leaving a function passes its exit hook: calls that may throw
; become invokes of one cleanup pad that calls the exit hook and resumes, and
; existing resumes get an exit hook too. Nounwind functions are left alone.

target triple = "x86_64-unknown-linux-gnu"

declare void @may_throw()
declare void @no_throw() nounwind
declare i32 @__gxx_personality_v0(...)

define void @_Z6callerv() {
; CHECK-LABEL: define void @_Z6callerv() {{.*}}personality ptr @__gxx_personality_v0
; CHECK:         call void @__spiketrap_enter(
; CHECK:         invoke void @may_throw()
; CHECK-NEXT:            to label %[[CONT:.*]] unwind label %spiketrap.unwind
; CHECK:       [[CONT]]:
; CHECK-NEXT:    call void @no_throw()
; CHECK:         call void @__spiketrap_exit(
; CHECK-NEXT:    ret void
; CHECK:       spiketrap.unwind:
; CHECK-NEXT:    %[[LP:.*]] = landingpad { ptr, i32 }
; CHECK-NEXT:            cleanup
; CHECK:         call void @__spiketrap_exit(
; CHECK-NEXT:    resume { ptr, i32 } %[[LP]]
  call void @may_throw()
  call void @no_throw()
  ret void
}

; A function with its own cleanup: the exit hook goes before its resume.
define void @_Z7cleanupv() personality ptr @__gxx_personality_v0 {
; CHECK-LABEL: define void @_Z7cleanupv()
; CHECK:       lpad:
; CHECK:         call void @__spiketrap_exit(
; CHECK-NEXT:    resume
entry:
  invoke void @may_throw() to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  call void @no_throw()
  resume { ptr, i32 } %lp
}

; Nothing unwinds out of a nounwind function: no landing pad.
define void @_Z4quietv() nounwind {
; CHECK-LABEL: define void @_Z4quietv()
; CHECK-NOT:     landingpad
; CHECK:         ret void
  call void @no_throw()
  ret void
}
