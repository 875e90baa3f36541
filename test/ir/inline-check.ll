; RUN: %opt -spiketrap-switch=flag -spiketrap-split-body=false -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s

; A function whose body stays in place (-O0, split-body-fallback.ll; here
; -spiketrap-split-body=false) loads its descriptor's adaptive off switch
; once, after the entry block's allocas, and calls each hook only while it
; is 0: a function the runtime switched off calls no hook at all,
; and both hooks of one activation follow the same answer.

target triple = "x86_64-unknown-linux-gnu"

declare void @work()
declare i32 @__gxx_personality_v0(...)

define void @_Z1fv() {
; CHECK-LABEL: define void @_Z1fv()
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %slot = alloca i32
; CHECK-NEXT:    [[OFF:%.*]] = load volatile i32, ptr @__spiketrap_state._Z1fv, align 4
; CHECK-NEXT:    [[ON:%.*]] = icmp eq i32 [[OFF]], 0
; CHECK-NEXT:    br i1 [[ON]], label %[[ENTER:.*]], label %[[BODY:.*]], !prof
; CHECK:       [[ENTER]]:
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc._Z1fv,
; CHECK-NEXT:    br label %[[BODY]]
; CHECK:       [[BODY]]:
; CHECK-NEXT:    store i32 0, ptr %slot
; CHECK:         br i1 [[ON]], label %[[EXIT:.*]], label %[[RET:.*]], !prof
; CHECK:       [[EXIT]]:
; CHECK:         call void @__spiketrap_exit(ptr @__spiketrap_desc._Z1fv,
; The exception path tests the same value.
; CHECK:       spiketrap.unwind:
; CHECK-NEXT:    landingpad
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    br i1 [[ON]]
entry:
  %slot = alloca i32
  store i32 0, ptr %slot
  call void @work()
  ret void
}
