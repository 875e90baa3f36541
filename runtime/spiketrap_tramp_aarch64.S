//===- spiketrap_tramp_aarch64.S - The patchable sites' trampolines -------===//
//
// The AArch64 twin of spiketrap_tramp_x86_64.S (read that first). A timed
// site branches here through its prefix with the function's descriptor in
// x16, the caller's return address in x30, and the stack pointer as the
// caller left it: that value identifies the activation. Arguments (x8, the
// address of a returned structure, always; x0-x<N-1> in
// __spiketrap_tramp_<N>; x0-x7 and q0-q7 in __spiketrap_tramp_fp) are kept
// across the enter hook, results (x0-x1; and q0-q3 in _fp) across the exit
// hook.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_tramp.h"

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define LANDING bti jc
#else
#define LANDING
#endif
#if defined(__ARM_FEATURE_PAC_DEFAULT) && __ARM_FEATURE_PAC_DEFAULT
#define SPIKETRAP_PAC 2
#else
#define SPIKETRAP_PAC 0
#endif
#if defined(__ARM_FEATURE_GCS_DEFAULT) && __ARM_FEATURE_GCS_DEFAULT
#define SPIKETRAP_GCS 4
#else
#define SPIKETRAP_GCS 0
#endif

// Frame: x29 x30 | x0-x7 | x8 descriptor | code address, pad | [q0-q7]
#define ARGS 16
#define X8 80
#define DESC 88
#define CODE 96
#define QREGS 112

.macro GP_PAIRS op, ngp
  .if \ngp > 0
  \op x0, x1, [sp, #ARGS+0]
  .endif
  .if \ngp > 2
  \op x2, x3, [sp, #ARGS+16]
  .endif
  .if \ngp > 4
  \op x4, x5, [sp, #ARGS+32]
  .endif
  .if \ngp > 6
  \op x6, x7, [sp, #ARGS+48]
  .endif
.endm

.macro Q_PAIRS op, nq
  \op q0, q1, [sp, #QREGS+0]
  \op q2, q3, [sp, #QREGS+32]
  .if \nq > 4
  \op q4, q5, [sp, #QREGS+64]
  \op q6, q7, [sp, #QREGS+96]
  .endif
.endm

.macro TRAMPOLINE name, ngp, fp
  .text
  .p2align 4
  .globl \name
  .type \name,%function
\name:
  .cfi_startproc
  LANDING
  .if \fp
  .set FRAME, 240
  .else
  .set FRAME, 112
  .endif
  stp x29, x30, [sp, #-FRAME]!
  .cfi_def_cfa_offset FRAME
  .cfi_offset x29, -FRAME
  .cfi_offset x30, -FRAME+8
  mov x29, sp
  GP_PAIRS stp, \ngp
  stp x8, x16, [sp, #X8]
  .if \fp
  Q_PAIRS stp, 8
  .endif
  ldrsw x17, [x16, #SPIKETRAP_DESC_ENTRY]
  add x17, x17, x16
  add x17, x17, #SPIKETRAP_DESC_ENTRY+SPIKETRAP_SITE_SIZE
  str x17, [sp, #CODE]
  mov x0, x16
  add x1, sp, #FRAME
  bl __spiketrap_tramp_enter
  mov w9, w0
  GP_PAIRS ldp, \ngp
  ldr x8, [sp, #X8]
  .if \fp
  Q_PAIRS ldp, 8
  .endif
  ldr x17, [sp, #CODE]
  cbz w9, 1f
  blr x17
  stp x0, x1, [sp, #ARGS+0]
  .if \fp
  Q_PAIRS stp, 4
  .endif
  ldr x0, [sp, #DESC]
  add x1, sp, #FRAME
  bl __spiketrap_exit
  ldp x0, x1, [sp, #ARGS+0]
  .if \fp
  Q_PAIRS ldp, 4
  .endif
  ldp x29, x30, [sp], #FRAME
  .cfi_remember_state
  .cfi_def_cfa_offset 0
  .cfi_restore x29
  .cfi_restore x30
  ret
  .cfi_restore_state
1:
  // Not timed: the code runs as if called directly (br x17: a BTI c
  // landing pad accepts it).
  ldp x29, x30, [sp], #FRAME
  .cfi_def_cfa_offset 0
  .cfi_restore x29
  .cfi_restore x30
  br x17
  .cfi_endproc
  .size \name, .-\name
.endm

// One per row of the list (include/spiketrap_tramps.inc).
#define SPIKETRAP_TRAMP(Name, GP, FP) TRAMPOLINE __spiketrap_tramp_##Name, GP, FP
#include "include/spiketrap_tramps.inc"

  .section .note.GNU-stack,"",%progbits

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
// Built with -mbranch-protection: keep the program's BTI marking (the
// linker ANDs every input's). The trampolines leave the return address
// untouched, so they need no pointer authentication of their own.
  .section .note.gnu.property,"a"
  .p2align 3
  .long 4
  .long 16
  .long 5 // NT_GNU_PROPERTY_TYPE_0
  .asciz "GNU"
  .long 0xc0000000 // GNU_PROPERTY_AARCH64_FEATURE_1_AND
  .long 4
  // BTI (1); PAC (2) and GCS (4, guarded control stack: calls and returns
  // pair) when the rest of the runtime is built with them.
  .long 1 | SPIKETRAP_PAC | SPIKETRAP_GCS
  .p2align 3
#endif
