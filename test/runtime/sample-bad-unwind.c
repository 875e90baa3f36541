// RUN: %clang %spiketrap -O1 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:verbosity=1 %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// With a SIGSEGV handler of the program's (ours wraps it): the same.
// RUN: %clang %spiketrap -O1 -DOWN_HANDLER %s %rtlib -o %t.own
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:verbosity=1 %run %t.own 2> %t.own.err
// RUN: FileCheck %s < %t.own.err
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the thread's timer never ticked here: 0 samples)

// Unwind tables can be wrong at some instructions (hand-written assembly in
// a library: SDL2's, under Chocolate Doom, faulted one run in ten). A tick
// that lands there sends the unwinder to read a "return address" the tables
// point at; libgcc, finding no unwind entry for it, reads the code at it
// and faults, in the sampler's signal handler. The fault must come back to
// the sample, which is dropped: the program runs on, and its spike is
// reported. Here the tables of spin_bad_tables say nothing of what it puts
// on the stack (x86-64) or in the link register (AArch64): the unwinder
// takes 0x29 for its caller.

#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#if defined(__x86_64__)
__asm__(".text\n"
        ".globl spin_bad_tables\n"
        ".type spin_bad_tables, @function\n"
        "spin_bad_tables:\n"
        ".cfi_startproc\n"
        "  pushq $0x29\n" // the tables still say the return address is on top
        "1:\n"
        "  subq $1, %rdi\n"
        "  jnz 1b\n"
        "  addq $8, %rsp\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size spin_bad_tables, .-spin_bad_tables\n");
#elif defined(__aarch64__)
__asm__(".text\n"
        ".globl spin_bad_tables\n"
        ".type spin_bad_tables, %function\n"
        "spin_bad_tables:\n"
        ".cfi_startproc\n"
        "  stp x29, x30, [sp, #-16]!\n" // the tables still say x30 holds it
        "  mov x30, #0x29\n"
        "1:\n"
        "  subs x0, x0, #1\n"
        "  b.ne 1b\n"
        "  ldp x29, x30, [sp], #16\n"
        "  ret\n"
        ".cfi_endproc\n"
        ".size spin_bad_tables, .-spin_bad_tables\n");
#endif
void spin_bad_tables(long Iterations);

__attribute__((noinline)) void load_level(void) {
  spin_bad_tables(300000000);
}

#ifdef OWN_HANDLER
static void onSegv(int Sig) {
  static const char Msg[] = "the program's SIGSEGV handler ran\n";
  write(2, Msg, sizeof(Msg) - 1);
  _exit(3);
}
#endif

int main(void) {
#ifdef OWN_HANDLER
  signal(SIGSEGV, onSegv);
#endif
  load_level();
  puts("ran to its end");
  return 0;
}

// CHECK: spiketrap: watcher: {{.*}} sample buffers, {{[1-9][0-9]*}} samples dropped for unwind tables that faulted
// CHECK: spike: {{.*}} in load_level
// CHECK-NOT: SIGSEGV
