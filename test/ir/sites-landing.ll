; RUN: %opt -passes=spiketrap -spiketrap-instrument-all %s | llc -O2 -o - | FileCheck %s --check-prefix=X86
; RUN: sed -e 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' \
; RUN:     -e 's/cf-protection-branch/branch-target-enforcement/' \
; RUN:     -e 's/define i32 @work(i32 %x) {/define i32 @work(i32 %x) "branch-target-enforcement" {/' %s \
; RUN:   | %opt -passes=spiketrap -spiketrap-instrument-all | llc -O2 -o - \
; RUN:   | FileCheck %s --check-prefix=A64
; RUN: sed -e 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' \
; RUN:     -e '/cf-protection-branch/d' -e 's/!llvm.module.flags = !{!0}//' %s \
; RUN:   | %opt -passes=spiketrap -spiketrap-instrument-all | llc -O2 -o - \
; RUN:   | FileCheck %s --check-prefix=A64-PLAIN

; Under branch protection (x86 IBT, AArch64 BTI) an indirect call must land
; on endbr64 or bti: the entry keeps one before its patchable instruction,
; and the function's own landing pad, right after it, is where the
; trampoline's indirect call lands. The short jump back to the prefix skips
; the extra 4 bytes (x86: -22, 0xea; AArch64: b to the prefix's code).

target triple = "x86_64-unknown-linux-gnu"

define i32 @work(i32 %x) {
  %y = mul i32 %x, %x
  ret i32 %y
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"cf-protection-branch", i32 1}

; X86:      .zero 3,204
; X86-NEXT: work:
; The unwind entry starts at the symbol: it covers the entry too.
; X86-NEXT:   .cfi_startproc
; X86-NEXT:   .ascii "\363\017\036\372"
; X86-NEXT:   .ascii "\353\352"
; X86-NEXT: # %bb.0:
; X86-NEXT:   endbr64

; The prefix: two offsets, then adr x15, .-8; ldpsw x16, x17, [x15];
; add x16, x16, x15; ldr x17, [x15, x17]; br x17; brk #0x5354.
; A64:      .word {{\(?}}.L__spiketrap_desc.work-(work-32){{\)?}}
; A64-NEXT: .word {{\(?}}__spiketrap_tramp_1_slot-(work-32){{\)?}}
; A64-NEXT: .ascii "\317\377\377\020"
; A64-NEXT: .ascii "\360E@i"
; A64-NEXT: .ascii "\020\002\017\213"
; A64-NEXT: .ascii "\361iq\370"
; A64-NEXT: .ascii "
; A64-NEXT: .ascii "\200j*\324"
; A64-NEXT: work:
; A64-NEXT: .cfi_startproc
; bti c, then b .-28 (to the prefix's code); the function's own bti c (hint #34)
; A64-NEXT: .ascii "_$\003\325"
; A64-NEXT: .ascii "\371\377\377\027"
; A64-NEXT: // %bb.0:
; A64-NEXT: hint #34

; Without BTI: b .-24, and the code follows at once.
; A64-PLAIN:      work:
; A64-PLAIN-NEXT: .cfi_startproc
; A64-PLAIN-NEXT: .ascii "\372\377\377\027"
; A64-PLAIN-NEXT: // %bb.0:
; A64-PLAIN-NEXT: mul
