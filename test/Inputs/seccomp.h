// Seccomp filters a program installs to sandbox itself, for the tests of
// test/runtime/seccomp-*.c. Each returns 0 once the filter is on.
#ifndef SECCOMP_H
#define SECCOMP_H
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define SECCOMP_TEST_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_TEST_ARCH AUDIT_ARCH_AARCH64
#endif

#define SC_LOAD(field)                                                         \
  BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
#define SC_ALLOW(nr)                                                           \
  BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),                             \
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

// A system call past the C library (as Chromium's sandbox makes them): no
// interposed prctl or syscall sees it.
static long rawSyscall3(long Nr, long A, long B, long C) {
  long R;
#if defined(__x86_64__)
  __asm__ volatile("syscall"
                   : "=a"(R)
                   : "a"(Nr), "D"(A), "S"(B), "d"(C)
                   : "rcx", "r11", "memory");
#elif defined(__aarch64__)
  register long X8 __asm__("x8") = Nr, X0 __asm__("x0") = A,
                X1 __asm__("x1") = B, X2 __asm__("x2") = C;
  __asm__ volatile("svc #0" : "+r"(X0) : "r"(X8), "r"(X1), "r"(X2) : "memory");
  R = X0;
#endif
  return R;
}

// How: "prctl" (OpenSSH's way), "syscall" (libseccomp's: syscall(2)),
// "tsync" (the same, for every thread of the process) or "raw" (inline
// assembly).
static int installFilter(struct sock_filter *F, unsigned short N,
                         const char *How) {
  struct sock_fprog Prog = {N, F};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    return -1;
  if (strcmp(How, "prctl") == 0)
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &Prog);
  if (strcmp(How, "syscall") == 0)
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &Prog);
  if (strcmp(How, "tsync") == 0)
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                        SECCOMP_FILTER_FLAG_TSYNC, &Prog);
  return (int)rawSyscall3(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0,
                          (long)&Prog);
}

// mprotect with PROT_EXEC kills the process (a W^X policy); all else runs.
static int forbidWritableCode(const char *How) {
  static struct sock_filter F[] = {
      SC_LOAD(arch),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_TEST_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      SC_LOAD(nr),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mprotect, 0, 3),
      SC_LOAD(args[2]),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  return installFilter(F, sizeof(F) / sizeof(F[0]), How);
}

// An OpenSSH-style allowlist: what a computing, printing process needs;
// any other call kills it.
static int allowFew(const char *How) {
  static struct sock_filter F[] = {
      SC_LOAD(arch),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_TEST_ARCH, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      SC_LOAD(nr),
      SC_ALLOW(SYS_read),
      SC_ALLOW(SYS_write),
      SC_ALLOW(SYS_exit),
      SC_ALLOW(SYS_exit_group),
      SC_ALLOW(SYS_rt_sigreturn),
      SC_ALLOW(SYS_futex),
      SC_ALLOW(SYS_brk),
      SC_ALLOW(SYS_mmap),
      SC_ALLOW(SYS_munmap),
      SC_ALLOW(SYS_madvise),
      SC_ALLOW(SYS_clock_gettime),
      SC_ALLOW(SYS_rt_sigprocmask),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
  };
  return installFilter(F, sizeof(F) / sizeof(F[0]), How);
}
#endif
