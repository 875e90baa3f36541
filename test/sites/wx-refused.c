// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t launch 2>&1 | FileCheck %s
// REQUIRES: switch-sites
// UNSUPPORTED: emulated
// (qemu-user does not pass seccomp filters to the kernel.)

// A system that refuses writable code (a W^X policy; here a seccomp filter
// that fails mprotect with both PROT_WRITE and PROT_EXEC, installed before
// the program starts): the runtime says so once, leaves every site timed,
// and the program runs and reports as before — switched-off functions only
// cost more (the trampoline jumps straight to their code).

#include "../Inputs/spin.h"
#include "Inputs/site_state.h"
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

static void forbidWritableCode(void) {
  struct sock_filter Filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
               offsetof(struct seccomp_data, args[2])),
      BPF_STMT(BPF_ALU | BPF_AND | BPF_K, PROT_WRITE | PROT_EXEC),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PROT_WRITE | PROT_EXEC, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog Prog = {sizeof(Filter) / sizeof(Filter[0]), Filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
      prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &Prog))
    perror("seccomp");
}

static volatile int Sink;
__attribute__((noinline)) int hot(int X) {
  for (int I = 0; I < 4; ++I)
    Sink += X * I;
  return Sink;
}
__attribute__((noinline)) void slow(void) { spin_ns(5000000); }
// hot's caller: main's callees stay timed (docs/selection.md).
__attribute__((noinline)) long calls(void) {
  long Sum = 0;
  for (int I = 0; I < 20000; ++I)
    Sum += hot(I);
  return Sum;
}

int main(int Argc, char **Argv) {
  if (Argc > 1 && !strcmp(Argv[1], "launch")) {
    forbidWritableCode();
    fflush(stdout);
    execl("/proc/self/exe", Argv[0], "run", (char *)0);
    perror("exec");
    return 1;
  }
  long Sum = calls();
  struct timespec T = {0, 50000000}; // time enough for a patch batch
  nanosleep(&T, 0);
  slow();
  printf("sum %ld, hot %s\n", Sum, site_state(hot));
  fflush(stdout); // before the report, on stderr at exit
  return 0;
}

// CHECK: spiketrap: cannot rewrite instrumented code (mprotect: Permission denied): functions switched off still pass through the runtime on every call
// CHECK-NOT: cannot rewrite
// CHECK: sum {{[0-9]+}}, hot timed
// CHECK: spike: {{.*}} in slow
// CHECK-NOT: cannot rewrite
