; RUN: %opt -spiketrap-switch=flag -passes=spiketrap -spiketrap-instrument-all %s \
; RUN:   | llc -O2 -mtriple=x86_64-unknown-linux-gnu -relocation-model=pic -o - \
; RUN:   | FileCheck %s --check-prefix=X86
; RUN: sed 's/x86_64-unknown-linux-gnu/aarch64-unknown-linux-gnu/' %s \
; RUN:   | %opt -spiketrap-switch=flag -passes=spiketrap -spiketrap-instrument-all \
; RUN:   | llc -O2 -o - | FileCheck %s --check-prefix=ARM

; What a switched-off call costs, in machine code: the thunk tests the
; descriptor's off switch and jumps, with no frame, no register saves and no
; call; the body keeps its own code (here: a leaf with no frame at all). The
; timed path, which runs next to two clock reads, is not padded to 16 bytes.

target triple = "x86_64-unknown-linux-gnu"

; X86-LABEL: scale:
; X86-NEXT:  # %bb.0:
; X86-NEXT:    cmpl $0, .L__spiketrap_state.scale(%rip)
; X86-NEXT:    jne scale.spiketrap
; X86-NEXT:  # %bb.1:
; X86-NEXT:    jmp scale.spiketrap_timed
; X86-LABEL: scale.spiketrap:
; X86-NOT:     push
; X86:         ret
; X86:         .size scale.spiketrap,
; X86-NOT:     .p2align
; X86:       scale.spiketrap_timed:
; The descriptor's address is computed for each hook, not kept in a
; callee-saved register across the body's call.
; X86:         leaq .L__spiketrap_desc.scale(%rip), %rdi
; X86:         callq __spiketrap_enter
; X86:         callq scale.spiketrap
; X86-NEXT:    movq %rax, %rbx
; X86-NEXT:    leaq .L__spiketrap_desc.scale.exit(%rip), %rdi
; X86-NEXT:    movq %r{{[0-9a-z]+}}, %rsi
; X86-NEXT:    callq __spiketrap_exit
; ARM-LABEL: scale:
; ARM:         adrp x8, .L__spiketrap_state.scale
; ARM-NEXT:    ldr w8, [x8, :lo12:.L__spiketrap_state.scale]
; ARM-NEXT:    cbz w8, .LBB0_2
; ARM-NEXT:  // %bb.1:
; ARM-NEXT:    b scale.spiketrap
; ARM-NEXT:  .LBB0_2:
; ARM-NEXT:    b scale.spiketrap_timed
define i64 @scale(i64 %x, i64 %n) nounwind {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i64 [ %x, %entry ], [ %acc.next, %loop ]
  %acc.next = mul i64 %acc, 3
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}
