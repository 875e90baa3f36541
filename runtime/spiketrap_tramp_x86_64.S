//===- spiketrap_tramp_x86_64.S - The patchable sites' trampolines --------===//
//
// A timed site jumps here (docs/design.md, "Patched sites") with the
// function's descriptor in %r11 and the caller's return address on top of
// the stack: the address of that slot identifies the activation, as
// llvm.addressofreturnaddress does for hooks in place. The trampoline keeps
// the argument registers across the enter hook, calls the function's code
// (right after its patchable instruction), keeps the result registers across
// the exit hook and returns to the caller. If the enter hook did not time the
// call (a busy or paused thread; a function switched off whose site is not
// rewritten yet), it jumps to the code instead, leaving no frame.
//
// An exception or longjmp through the function skips the exit hook: its
// frame stays on the thread's stack until a later hook finds it below the
// stack pointer (spiketrap_hooks.cpp). The trampoline's unwind entry lets the
// unwinder pass through it.
//
// Variants by the registers to keep (include/spiketrap_tramps.inc):
// __spiketrap_tramp_<N> for functions that take N integer or pointer
// arguments (0 to 6) and return integers or pointers, __spiketrap_tramp_fp
// for those that use SSE registers too (the pass picks; plugin/Sites.cpp).
// Each saves only what its functions use.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_tramp.h"

#ifdef __CET__
#define LANDING endbr64
#else
#define LANDING
#endif

// Stack after the sub: rdi rsi rdx rcx r8 r9 | descriptor | code address |
// [xmm0-7] ; FRAME keeps %rsp 16-byte aligned at the calls.
#define ARGS 0
#define DESC 48
#define CODE 56
#define XMM 64

.macro SAVE_ARGS ngp
  .if \ngp > 0
  movq %rdi, ARGS+0(%rsp)
  .endif
  .if \ngp > 1
  movq %rsi, ARGS+8(%rsp)
  .endif
  .if \ngp > 2
  movq %rdx, ARGS+16(%rsp)
  .endif
  .if \ngp > 3
  movq %rcx, ARGS+24(%rsp)
  .endif
  .if \ngp > 4
  movq %r8, ARGS+32(%rsp)
  .endif
  .if \ngp > 5
  movq %r9, ARGS+40(%rsp)
  .endif
.endm

.macro RESTORE_ARGS ngp
  .if \ngp > 0
  movq ARGS+0(%rsp), %rdi
  .endif
  .if \ngp > 1
  movq ARGS+8(%rsp), %rsi
  .endif
  .if \ngp > 2
  movq ARGS+16(%rsp), %rdx
  .endif
  .if \ngp > 3
  movq ARGS+24(%rsp), %rcx
  .endif
  .if \ngp > 4
  movq ARGS+32(%rsp), %r8
  .endif
  .if \ngp > 5
  movq ARGS+40(%rsp), %r9
  .endif
.endm

.macro TRAMPOLINE name, ngp, fp
  .text
  .p2align 4
  .globl \name
  .type \name,@function
\name:
  .cfi_startproc
  LANDING
  .if \fp
  subq $200, %rsp
  .cfi_adjust_cfa_offset 200
  .set FRAME, 200
  .else
  subq $72, %rsp
  .cfi_adjust_cfa_offset 72
  .set FRAME, 72
  .endif
  SAVE_ARGS \ngp
  .if \fp
  movaps %xmm0, XMM+0(%rsp)
  movaps %xmm1, XMM+16(%rsp)
  movaps %xmm2, XMM+32(%rsp)
  movaps %xmm3, XMM+48(%rsp)
  movaps %xmm4, XMM+64(%rsp)
  movaps %xmm5, XMM+80(%rsp)
  movaps %xmm6, XMM+96(%rsp)
  movaps %xmm7, XMM+112(%rsp)
  .endif
  movq %r11, DESC(%rsp)
  movslq SPIKETRAP_DESC_ENTRY(%r11), %rax
  leaq SPIKETRAP_DESC_ENTRY+SPIKETRAP_SITE_SIZE(%r11,%rax), %rax
  movq %rax, CODE(%rsp)
  movq %r11, %rdi
  leaq FRAME(%rsp), %rsi
  call __spiketrap_tramp_enter
  RESTORE_ARGS \ngp
  .if \fp
  movaps XMM+0(%rsp), %xmm0
  movaps XMM+16(%rsp), %xmm1
  movaps XMM+32(%rsp), %xmm2
  movaps XMM+48(%rsp), %xmm3
  movaps XMM+64(%rsp), %xmm4
  movaps XMM+80(%rsp), %xmm5
  movaps XMM+96(%rsp), %xmm6
  movaps XMM+112(%rsp), %xmm7
  .endif
  testb %al, %al
  jz 1f
  call *CODE(%rsp)
  movq %rax, ARGS+0(%rsp)
  movq %rdx, ARGS+8(%rsp)
  .if \fp
  movaps %xmm0, XMM+0(%rsp)
  movaps %xmm1, XMM+16(%rsp)
  .endif
  movq DESC(%rsp), %rdi
  leaq FRAME(%rsp), %rsi
  call __spiketrap_exit
  movq ARGS+0(%rsp), %rax
  movq ARGS+8(%rsp), %rdx
  .if \fp
  movaps XMM+0(%rsp), %xmm0
  movaps XMM+16(%rsp), %xmm1
  .endif
  addq $FRAME, %rsp
  .cfi_adjust_cfa_offset -FRAME
  ret
  .cfi_adjust_cfa_offset FRAME
1:
  // Not timed: the code runs as if called directly.
  movq CODE(%rsp), %r11
  addq $FRAME, %rsp
  .cfi_adjust_cfa_offset -FRAME
  jmp *%r11
  .cfi_endproc
  .size \name, .-\name
.endm

// One per row of the list (include/spiketrap_tramps.inc).
#define SPIKETRAP_TRAMP(Name, GP, FP) TRAMPOLINE __spiketrap_tramp_##Name, GP, FP
#include "include/spiketrap_tramps.inc"

  .section .note.GNU-stack,"",@progbits

#ifdef __CET__
// Built with -fcf-protection: keep the program's IBT and shadow-stack
// marking (the linker ANDs every input's).
  .section .note.gnu.property,"a"
  .p2align 3
  .long 4
  .long 16
  .long 5 // NT_GNU_PROPERTY_TYPE_0
  .asciz "GNU"
  .long 0xc0000002 // GNU_PROPERTY_X86_FEATURE_1_AND
  .long 4
  .long __CET__ // IBT (1), SHSTK (2)
  .p2align 3
#endif
