; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -spiketrap-late-probes=false -S %s | FileCheck %s --check-prefix=NONE

; A loop that runs on some calls only gets a late probe before it: while
; adaptive mode has the function switched off (off == 1), the call is timed
; from there, and every return closes the frame if the probe fired. A loop
; that runs on every call gets none (adaptive mode saw its time).

target triple = "x86_64-unknown-linux-gnu"

declare i64 @now()

; CHECK-LABEL: define internal void @rare_loop.spiketrap(
; CHECK:       entry:
; CHECK-NEXT:    br i1 %slow, label %loop.pre, label %done
; CHECK:       loop.pre:
; CHECK-NEXT:    %end = call i64 @now()
; CHECK-NEXT:    [[OFF:%.*]] = load volatile i32, ptr @__spiketrap_state.rare_loop, align 4
; CHECK-NEXT:    [[FIRE:%.*]] = icmp eq i32 [[OFF]], 1
; CHECK-NEXT:    br i1 [[FIRE]], label %[[PROBE:.*]], label %[[JOIN:.*]], !prof [[UNLIKELY:![0-9]+]]
; CHECK:       [[PROBE]]:
; CHECK-NEXT:    [[F0:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_enter_late(ptr @__spiketrap_desc.rare_loop, ptr [[F0]])
; CHECK:       [[JOIN]]:
; CHECK-NEXT:    [[FIRED:%.*]] = phi i1 [ true, %[[PROBE]] ], [ false, %loop.pre ]
; CHECK-NEXT:    br label %loop
; CHECK:       done:
; CHECK-NEXT:    [[WAS:%.*]] = phi i1 [ [[FIRED]], %loop ], [ false, %entry ]
; CHECK-NEXT:    br i1 [[WAS]], label %[[CLOSE:.*]], label %[[RET:.*]], !prof [[UNLIKELY]]
; CHECK:       [[CLOSE]]:
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_exit(ptr @__spiketrap_desc.rare_loop, ptr [[F1]])
; CHECK:       [[RET]]:
; CHECK-NEXT:    ret void
define void @rare_loop(i1 %slow) {
entry:
  br i1 %slow, label %loop.pre, label %done
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

; CHECK-LABEL: define internal void @every_call.spiketrap(
; CHECK-NOT:     __spiketrap_enter_late
; CHECK:       }
define void @every_call(i64 %end) {
entry:
  br label %loop
loop:
  %t = call i64 @now()
  %more = icmp slt i64 %t, %end
  br i1 %more, label %loop, label %done
done:
  ret void
}

; NONE-NOT: __spiketrap_enter_late
