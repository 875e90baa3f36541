; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s

; Direct recursion is timed once, at its outermost call: inside the moved
; body, calls of the function itself go straight to the body, not through
; the thunk. Calls through a pointer and other uses of the function's
; address still reach the thunk.

target triple = "x86_64-unknown-linux-gnu"

declare void @use(ptr)

; CHECK-LABEL: define internal i64 @walk.spiketrap(i64 %n)
; CHECK:         %inner = call i64 @walk.spiketrap(i64 %m)
; CHECK:         call void @use(ptr @walk)
; CHECK:         %tail = musttail call i64 @walk.spiketrap(i64 %m)
define i64 @walk(i64 %n) {
entry:
  %done = icmp eq i64 %n, 0
  br i1 %done, label %leaf, label %step
leaf:
  ret i64 0
step:
  %m = sub i64 %n, 1
  %inner = call i64 @walk(i64 %m)
  call void @use(ptr @walk)
  %odd = trunc i64 %n to i1
  br i1 %odd, label %again, label %back
again:
  %tail = musttail call i64 @walk(i64 %m)
  ret i64 %tail
back:
  ret i64 %inner
}
