; RUN: %opt -passes=spiketrap,verify -S %s | FileCheck %s
; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -S %s | FileCheck %s --check-prefix=FLAG
; RUN: %opt -spiketrap-keep-callers=false -passes=spiketrap,verify -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=spiketrap -S %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM

; A call in tail position compiles to a jump: the caller's frame is gone
; while the callee runs, and the callee's spike reads `render > spin`
; without `draw`. In an instrumented function every call stays a call: the
; `tail` marker goes, and so do the backend's own sibling calls
; ("disable-tail-calls"). musttail stays (the thunk's jumps are musttail);
; functions the pass does not instrument keep their tail calls.

target triple = "x86_64-unknown-linux-gnu"

declare void @spin(double)
declare i32 @callee(i32)

; CHECK-LABEL: define void @draw(double %us)
; CHECK-SAME:    #[[DRAW:[0-9]+]]
; CHECK:         {{^  }}call void @spin(double %us)
; FLAG-LABEL:  define void @draw(
; FLAG:          musttail call void @draw.spiketrap(
; FLAG-LABEL:  define internal void @draw.spiketrap(double %us)
; FLAG-SAME:     #[[BODY:[0-9]+]]
; FLAG:          {{^  }}call void @spin(double %us)
; OFF-LABEL:   define void @draw(
; OFF:           tail call void @spin(double %us)
define void @draw(double %us) {
entry:
  %pos = fcmp ogt double %us, 0.0
  br i1 %pos, label %slow, label %done
slow:
  tail call void @spin(double %us)
  br label %done
done:
  ret void
}

; CHECK-LABEL: define i32 @forward(
; CHECK:         %r = musttail call i32 @callee(i32 %x)
define i32 @forward(i32 %x) {
  %r = musttail call i32 @callee(i32 %x)
  ret i32 %r
}

; Straight-line code that calls nothing is not instrumented: as it was.
; CHECK-LABEL: define double @leaf(double %x) {
; CHECK-NEXT:    %r = tail call double @llvm.fabs.f64(double %x)
define double @leaf(double %x) {
  %r = tail call double @llvm.fabs.f64(double %x)
  ret double %r
}
declare double @llvm.fabs.f64(double)

; CHECK-DAG: attributes #[[DRAW]] = { {{.*}}"disable-tail-calls"="true"
; FLAG-DAG:  attributes #[[BODY]] = { {{.*}}"disable-tail-calls"="true"

; ASM-LABEL: draw:
; ASM-NOT:     jmp{{.*}}spin
; ASM:         callq spin
; ASM-LABEL: forward:
; ASM:         jmp{{.*}}callee
