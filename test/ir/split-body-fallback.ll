; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: sed 's/x86_64-unknown-linux-gnu/riscv64-unknown-linux-gnu/' %s \
; RUN:   | %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S \
; RUN:   | FileCheck %s --check-prefix=OTHER --implicit-check-not=.spiketrap(

; Bodies that must run in the frame the caller called, or that a thunk could
; not forward to, keep their hooks in place (guarded by the off switch): no
; `.spiketrap` body is made for them. Without a guaranteed musttail (here
; RISC-V) nothing is split.

target triple = "x86_64-unknown-linux-gnu"

%struct.big = type { [4 x i64] }

declare void @llvm.va_start.p0(ptr)
declare ptr @llvm.returnaddress(i32)
declare void @use(ptr)
declare void @abort() noreturn

; CHECK-LABEL: define void @varargs(i32 %n, ...)
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.varargs,
define void @varargs(i32 %n, ...) {
  %ap = alloca ptr
  call void @llvm.va_start.p0(ptr %ap)
  ret void
}

; CHECK-LABEL: define void @by_value(ptr byval(%struct.big) %b)
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.by_value,
define void @by_value(ptr byval(%struct.big) %b) {
  call void @use(ptr %b)
  ret void
}

; CHECK-LABEL: define void @caller_address()
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.caller_address,
define void @caller_address() {
  %ra = call ptr @llvm.returnaddress(i32 0)
  call void @use(ptr %ra)
  ret void
}

; CHECK-LABEL: define void @computed_goto(
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.computed_goto,
define void @computed_goto(i1 %c) {
entry:
  call void @use(ptr blockaddress(@computed_goto, %target))
  br i1 %c, label %target, label %done
target:
  br label %done
done:
  ret void
}

; CHECK-LABEL: define void @dies()
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.dies,
define void @dies() noreturn {
  call void @abort()
  unreachable
}

; CHECK-LABEL: define void @debug_build()
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.debug_build,
define void @debug_build() noinline optnone {
  call void @use(ptr null)
  ret void
}

; CHECK-LABEL: define ghccc void @own_convention()
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.own_convention,
define ghccc void @own_convention() {
  call void @use(ptr null)
  ret void
}

; A module constructor runs once (and ASan puts a call before its ret).
; CHECK-LABEL: define internal void @init_module()
; CHECK:         call void @__spiketrap_enter(ptr @__spiketrap_desc.init_module,
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init_module, ptr null }]
define internal void @init_module() {
  call void @use(ptr null)
  ret void
}

; The control: a plain function on x86-64 is split, and its body is the
; only one made (bodies come last, in order).
; CHECK-LABEL: define void @plain()
; CHECK:         musttail call void @plain.spiketrap()
; CHECK-NOT:   define {{.*}}.spiketrap(
; CHECK:       define internal void @plain.spiketrap()
; CHECK-NOT:   define {{.*}}.spiketrap(
; OTHER-LABEL: define void @plain()
; OTHER:         call void @__spiketrap_enter(ptr @__spiketrap_desc.plain,
define void @plain() {
  call void @use(ptr null)
  ret void
}
