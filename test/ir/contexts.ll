; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: sed 's/^declare i32 @swapcontext.*/define i32 @swapcontext(ptr %o, ptr %i) { ret i32 0 }/' %s \
; RUN:   | %opt -passes=spiketrap -spiketrap-instrument-all -S | FileCheck %s --check-prefix=OWN

; Fibers: a module's calls of swapcontext, setcontext and makecontext (and
; their addresses) go to the runtime's twins, which keep a stack of open
; calls per context (runtime/spiketrap_fibers.cpp). A program's own
; definition of one is left alone.

target triple = "x86_64-unknown-linux-gnu"

declare i32 @swapcontext(ptr, ptr)
declare i32 @setcontext(ptr)
declare void @makecontext(ptr, ptr, i32, ...)
declare void @entry()

@switcher = global ptr @swapcontext

; CHECK: @switcher = global ptr @__spiketrap_swapcontext
; CHECK-LABEL: define void @run(
; CHECK:         call void (ptr, ptr, i32, ...) @__spiketrap_makecontext(ptr %a, ptr @entry, i32 1, i32 7)
; CHECK:         call i32 @__spiketrap_swapcontext(ptr %a, ptr %b)
; CHECK:         call i32 @__spiketrap_setcontext(ptr %b)
; OWN:         call i32 @swapcontext(ptr %a, ptr %b)
define void @run(ptr %a, ptr %b) {
  call void (ptr, ptr, i32, ...) @makecontext(ptr %a, ptr @entry, i32 1, i32 7)
  %r = call i32 @swapcontext(ptr %a, ptr %b)
  %s = call i32 @setcontext(ptr %b)
  ret void
}
