; RUN: %opt -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s --check-prefix=FLAG

; With patchable sites (the default here), a function that cannot have one
; (seven integer arguments: one is passed on the stack) is timed through a
; thunk, but its rare loop gets no late probe: the watcher's sampling and
; its re-arming of a long call's callees do that job for every function in
; this mode. With -spiketrap-switch=flag, the same loop is probed.

target triple = "x86_64-unknown-linux-gnu"

declare i64 @now()

; CHECK-LABEL: define internal void @seven.spiketrap(
; CHECK-NOT:     __spiketrap_enter_late
; CHECK:         ret void
; CHECK-NEXT:  }
; FLAG-LABEL:  define internal void @seven.spiketrap(
; FLAG:          call void @__spiketrap_enter_late(ptr @__spiketrap_desc.seven,
define void @seven(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %slow) {
entry:
  %s = icmp ne i64 %slow, 0
  br i1 %s, label %loop.pre, label %done
loop.pre:
  %end = call i64 @now()
  br label %loop
loop:
  %t = call i64 @now()
  %more = icmp slt i64 %t, %end
  br i1 %more, label %loop, label %done
done:
  ret void
}
