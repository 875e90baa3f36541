; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: sed 's/x86_64-unknown-linux-gnu/riscv64-unknown-linux-gnu/' %s \
; RUN:   | %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap -spiketrap-instrument-all -S | FileCheck %s --check-prefix=OTHER

; The enter hook runs first and the exit hook right before every ret, each
; with the activation's return-address slot (frame address off x86/AArch64).
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @pick(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[F0:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_enter(ptr @__spiketrap_desc.pick, ptr [[F0]])
; CHECK-NEXT:    %c = icmp eq i32 %x, 0
; OTHER-LABEL: define i32 @pick(
; OTHER-NEXT:  entry:
; OTHER-NEXT:    [[F0:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; OTHER-NEXT:    call void @__spiketrap_enter(ptr @__spiketrap_desc.pick, ptr [[F0]])
define i32 @pick(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %zero, label %other

; CHECK:       zero:
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_exit(ptr @__spiketrap_desc.pick, ptr [[F1]])
; CHECK-NEXT:    ret i32 1
; OTHER:       zero:
; OTHER-NEXT:    [[F1:%.*]] = call ptr @llvm.frameaddress.p0(i32 0)
; OTHER-NEXT:    call void @__spiketrap_exit(ptr @__spiketrap_desc.pick, ptr [[F1]])
; OTHER-NEXT:    ret i32 1
zero:
  ret i32 1

; A block that never returns gets no exit hook.
; CHECK:       other:
; CHECK-NEXT:    %d = icmp slt i32 %x, 0
; CHECK-NEXT:    br i1 %d, label %neg, label %trap
other:
  %d = icmp slt i32 %x, 0
  br i1 %d, label %neg, label %trap

; CHECK:       neg:
; CHECK-NEXT:    %n = sub i32 0, %x
; CHECK-NEXT:    [[F2:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_exit(ptr @__spiketrap_desc.pick, ptr [[F2]])
; CHECK-NEXT:    ret i32 %n
neg:
  %n = sub i32 0, %x
  ret i32 %n

; CHECK:       trap:
; CHECK-NEXT:    call void @llvm.trap()
; CHECK-NEXT:    unreachable
trap:
  call void @llvm.trap()
  unreachable
}

; The hooks never throw.
; CHECK: declare void @__spiketrap_enter(ptr, ptr) [[HOOK:#[0-9]+]]
; CHECK: declare void @__spiketrap_exit(ptr, ptr) [[HOOK]]
; CHECK: attributes [[HOOK]] = { nounwind }
declare void @llvm.trap()
