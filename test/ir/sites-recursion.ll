; RUN: %opt -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %s \
; RUN:   | %opt -passes=spiketrap -spiketrap-instrument-all | llc -O2 -o - \
; RUN:   | FileCheck %s --check-prefix=ARM

; With patched sites, direct recursion is timed once, at its outermost call:
; the function's calls of itself go to its code after the entry instruction
; (a private alias), not through the site. Other uses of its address, and a
; weak function's calls of itself (another definition may replace it),
; still reach the site.

target triple = "x86_64-unknown-linux-gnu"

declare void @use(ptr)

; CHECK: @walk.spiketrap_code = private alias i8, getelementptr (i8, ptr @walk, i64 2)
; CHECK-NOT: @weakwalk.spiketrap_code
; CHECK-LABEL: define i64 @walk(i64 %n)
; CHECK:         %inner = call i64 @walk.spiketrap_code(i64 %m)
; CHECK:         call void @use(ptr @walk)
; CHECK:         %tail = musttail call i64 @walk.spiketrap_code(i64 %m)
; CHECK-LABEL: define weak i64 @weakwalk(i64 %n)
; CHECK:         call i64 @weakwalk(i64 %n)

; ASM-LABEL: walk:
; ASM:         callq .Lwalk.spiketrap_code
; ASM:         jmp .Lwalk.spiketrap_code # TAILCALL
; ASM:       {{\.set \.Lwalk\.spiketrap_code, walk\+2|\.Lwalk\.spiketrap_code = walk\+2}}

; ARM-LABEL: walk:
; ARM:         bl .Lwalk.spiketrap_code
; ARM:       {{\.set \.Lwalk\.spiketrap_code, walk\+4|\.Lwalk\.spiketrap_code = walk\+4}}
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

define weak i64 @weakwalk(i64 %n) {
  %r = call i64 @weakwalk(i64 %n)
  ret i64 %r
}
