; RUN: %opt -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all %s | llc -O2 -o - | FileCheck %s --check-prefix=ASM
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -pass-remarks-missed=spiketrap \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: sed 's/x86_64-unknown-linux-gnu/riscv64-unknown-linux-gnu/' %s \
; RUN:   | %opt -passes=spiketrap -spiketrap-instrument-all -S \
; RUN:   | FileCheck %s --check-prefix=OTHER
; RUN: %opt -passes=spiketrap,spiketrap -spiketrap-instrument-all -S %s \
; RUN:   | FileCheck %s --check-prefix=TWICE

; By default (-spiketrap-switch=sites) a timed function keeps its code, in
; place: the pass adds 16 bytes of prefix data before it (lea desc(%rip),
; %r11; jmp *slot(%rip); int3 padding: 4c 8d 1d, ff 25, cc) and a 2-byte
; entry instruction as prologue data, a short jump back to the prefix (eb
; ee: -18), which the runtime rewrites to a NOP to switch the function off.
; The descriptor's entry field is the offset of that instruction. No hook is
; called from IR, and the function's attributes stay.

target triple = "x86_64-unknown-linux-gnu"

; CHECK: $__spiketrap_tramp_2_slot = comdat any
; CHECK: $__spiketrap_tramp_fp_slot = comdat any
; CHECK: @__spiketrap_desc.ints = private constant {{.*}}, i32 trunc (i64 sub (i64 ptrtoint (ptr @ints.spiketrap_site to i64), i64 ptrtoint (ptr getelementptr ({{.*}}, ptr @__spiketrap_desc.ints, i32 0, i32 4) to i64)) to i32) }
; CHECK: @__spiketrap_tramp_2_slot = linkonce_odr hidden constant ptr @__spiketrap_tramp_2, comdat
; CHECK: @__spiketrap_tramp_fp_slot = linkonce_odr hidden constant ptr @__spiketrap_tramp_fp, comdat
; The descriptor names a function another object may preempt through a local
; alias.
; CHECK: @ints.spiketrap_site = private alias {{.*}} @ints

; CHECK:       define i32 @ints(i32 %a, ptr %b) #[[ATTRS:[0-9]+]] prefix <{ [3 x i8], i32, [2 x i8], i32, [3 x i8] }> <{ [3 x i8] c"L\8D\1D", i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_desc.ints to i64), i64 add (i64 ptrtoint (ptr @ints to i64), i64 -9)) to i32), [2 x i8] c"\FF%", i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_tramp_2_slot to i64), i64 add (i64 ptrtoint (ptr @ints to i64), i64 -3)) to i32), [3 x i8] c"\CC\CC\CC" }> prologue <{ [2 x i8] }> <{ [2 x i8] c"\EB\EE" }> {
; CHECK-NEXT:    %c = load i32, ptr %b
; CHECK-NEXT:    %d = add i32 %a, %c
; CHECK-NEXT:    ret i32 %d
define i32 @ints(i32 %a, ptr %b) nounwind memory(argmem: read) {
  %c = load i32, ptr %b
  %d = add i32 %a, %c
  ret i32 %d
}

; The trampoline keeps only the registers the function uses: two integer
; arguments (__spiketrap_tramp_2) above; floating-point arguments or
; results, SSE registers too.
; CHECK-LABEL: define double @floats(double %x, i64 %n) {{.*}}prefix {{.*}}@__spiketrap_tramp_fp_slot {{.*}} prologue
define double @floats(double %x, i64 %n) {
  %y = fadd double %x, 1.0
  ret double %y
}

; Six integer registers and eight SSE registers are the most the trampoline
; forwards; a 128-bit pair of results too.
; CHECK-LABEL: define { i64, i64 } @full(i64 %0, i64 %1, i64 %2, i64 %3, i64 %4, i64 %5, {{.*}}) {{.*}}prefix
define { i64, i64 } @full(i64, i64, i64, i64, i64, i64, double, double, double, double, double, double, double, double) {
  ret { i64, i64 } zeroinitializer
}

; The descriptor names a site by its address, so an unnamed_addr function
; loses that: its descriptor's offset would otherwise become PLT-relative
; (in a shared object the PLT stub's; R_AARCH64_PLT32, which GNU ld before
; 2.41 rejects).
; CHECK-LABEL: define void @anonymous() local_unnamed_addr {{.*}}prefix
define void @anonymous() unnamed_addr {
  ret void
}

; What cannot be called from the trampoline keeps the thunk (or hooks in
; place), with a remark.
; CHECK-LABEL: define i64 @seven(
; CHECK:         musttail call i64 @seven.spiketrap_timed(
; The function's own attributes are kept: no call was added.
; CHECK: attributes #[[ATTRS]] = { nounwind memory(argmem: read) "spiketrap-instrumented" }
; REMARK: remark: {{.*}}'seven' is timed through a thunk, not a patchable site: an argument or its result is not passed in registers
define i64 @seven(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g) {
  ret i64 %g
}

; REMARK: remark: {{.*}}'byvalue' is timed through a thunk, not a patchable site: an argument or its result is not passed in registers
%struct.big = type { [8 x i64] }
define i64 @byvalue(ptr byval(%struct.big) %s) {
  ret i64 0
}

; REMARK: remark: {{.*}}'extended' is timed through a thunk, not a patchable site: an argument or its result is not passed in registers
define x86_fp80 @extended() {
  ret x86_fp80 0xK00000000000000000000
}

; REMARK: remark: {{.*}}'variadic' is timed through a thunk, not a patchable site: it takes variable arguments
define void @variadic(i32 %n, ...) {
  ret void
}

; REMARK: remark: {{.*}}'caller_of' is timed through a thunk, not a patchable site: it reads its return address
define ptr @caller_of() {
  %r = call ptr @llvm.returnaddress(i32 0)
  ret ptr %r
}
declare ptr @llvm.returnaddress(i32)

; REMARK: remark: {{.*}}'claimed' is timed through a thunk, not a patchable site: its entry is already claimed
define void @claimed() prefix i32 1234 {
  ret void
}

; Preemptible and in a comdat (an inline function in a shared object).
; REMARK: remark: {{.*}}'inline_fn' is timed through a thunk, not a patchable site: another object may preempt it (inline, in a shared object)
$inline_fn = comdat any
define linkonce_odr void @inline_fn() comdat {
  ret void
}

; -fsanitize=function and KCFI put a type hash right before the symbol.
; REMARK: remark: {{.*}}'typed' is timed through a thunk, not a patchable site: its entry is already claimed
define void @typed() !func_sanitize !0 {
  ret void
}
; REMARK: remark: {{.*}}'kcfi' is timed through a thunk, not a patchable site: its entry is already claimed
define void @kcfi() !kcfi_type !1 {
  ret void
}
!0 = !{i32 -1056584962, i32 -1522505972}
!1 = !{i32 12345}

; REMARK: remark: {{.*}}'interrupt' is timed through a thunk, not a patchable site: its calling convention
define x86_intrcc void @interrupt(ptr byval(i8) %frame) {
  ret void
}

; The prefix sits before the symbol, the entry at it, the code after it.
; ASM-LABEL: .type ints,@function
; ASM-NEXT:    .ascii "L\215\035"
; ASM-NEXT:    .long {{\(?}}.L__spiketrap_desc.ints-(ints-9){{\)?}}
; ASM-NEXT:    .ascii "\377%"
; ASM-NEXT:    .long {{\(?}}__spiketrap_tramp_2_slot-(ints-3){{\)?}}
; ASM-NEXT:    .zero 3,204
; ASM-NEXT:  ints:
; ASM-NEXT:    .ascii "\353\356"
; ASM:         retq

; Other targets have no sites: hooks in place (no guaranteed musttail for a
; thunk either).
; OTHER-LABEL: define i32 @ints(
; OTHER-NOT:   prefix
; OTHER:       call void @__spiketrap_enter(

; A second run leaves a function with a site alone.
; TWICE:     define i32 @ints(i32 %a, ptr %b) {{.*}}prologue <{ [2 x i8] }> <{ [2 x i8] c"\EB\EE" }> {
; TWICE-NOT: prologue
; TWICE:     define double @floats(

; ASM-LABEL: .L__spiketrap_desc.anonymous:
; ASM:         .long {{\(?}}.Lanonymous.spiketrap_site-.L__spiketrap_desc.anonymous{{\)?}}-16
