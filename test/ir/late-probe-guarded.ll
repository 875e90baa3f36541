; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s

; The shape -O2 gives a rare loop: its guard branches straight into the
; loop's header (rotated loop, no preheader of its own). The late probe
; still goes before the loop, on an edge block of its own (issue 24: none
; of nine such functions had a probe).

target triple = "x86_64-unknown-linux-gnu"

declare void @work(i64)

; CHECK-LABEL: define internal void @guarded.spiketrap(
; CHECK:       entry:
; CHECK-NEXT:    %skip = icmp eq i64 %n, 0
; CHECK-NEXT:    br i1 %skip, label %done, label %[[PRE:.*]]
; CHECK:       [[PRE]]:
; CHECK-NEXT:    [[OFF:%.*]] = load volatile i32, ptr @__spiketrap_state.guarded, align 4
; CHECK-NEXT:    [[FIRE:%.*]] = icmp eq i32 [[OFF]], 1
; CHECK-NEXT:    br i1 [[FIRE]], label %[[PROBE:.*]], label %{{.*}}, !prof
; CHECK:       [[PROBE]]:
; CHECK:         call void @__spiketrap_enter_late(ptr @__spiketrap_desc.guarded,
; CHECK:       loop:
; CHECK:       done:
; CHECK:         call void @__spiketrap_exit(ptr @__spiketrap_desc.guarded,
define void @guarded(i64 %n) {
entry:
  %skip = icmp eq i64 %n, 0
  br i1 %skip, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  call void @work(i64 %i)
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}
