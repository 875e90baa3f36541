//===- spiketrap_lifecycle_linux.cpp - fork, exec and dlclose on Linux ----===//
//
// The process events of spiketrap_lifecycle.cpp as Linux and glibc raise
// them: fork handlers; dlclose, _exit and the exec functions interposed; a
// user namespace made with the watcher thread out of the way; prctl noted
// for the sandbox check. A program replaced by exec must not inherit a
// signal of ours.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_lifecycle.h"
#include "spiketrap_patch.h"
#include "spiketrap_platform.h"
#include "spiketrap_registry.h"
#include "spiketrap_sampler.h"
#include "spiketrap_sigaction.h"
#include "spiketrap_static.h"
#include "spiketrap_thread.h"
#include "spiketrap_waits.h"
#include "spiketrap_watcher.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

namespace __spiketrap {

namespace {
using DlcloseFn = int (*)(void *);
DlcloseFn RealDlclose;
using ExecveFn = int (*)(const char *, char *const[], char *const[]);
ExecveFn RealExecve;
// glibc's search of PATH (execvp, execlp and execvpe reach it).
ExecvpeFn RealExecvpe;
// The pid of this process when it is a forked child, else 0: its _exit
// writes its report (a vfork child of it has another pid and does not).
long ForkedChild;
} // namespace

void lifecycleInit() {
  RealDlclose = reinterpret_cast<DlcloseFn>(dlsym(RTLD_NEXT, "dlclose"));
  // Now: a forked child must not take the loader's lock to exec.
  RealExecve = reinterpret_cast<ExecveFn>(dlsym(RTLD_NEXT, "execve"));
  RealExecvpe = reinterpret_cast<ExecvpeFn>(dlsym(RTLD_NEXT, "execvpe"));
  if (!RealExecvpe) // a static program
    RealExecvpe = staticExecvpe();
  signalInit();
  // Locks of the background threads are not held across fork (it would
  // wait for a whole report): the child makes them anew, with the threads.
  pthread_atfork(threadBeforeFork, threadAfterForkParent, [] {
    ForkedChild = arch::rawSyscall(SYS_getpid, 0, 0, 0, 0, 0, 0);
    lifecycleAfterForkChild();
  });
  // A batch of patches is short: the child never sees one half done.
  pthread_atfork(patchBeforeFork, patchAfterForkParent, patchAfterForkChild);
  // Registered last, so taken first: no other lock is held while it waits.
  pthread_atfork(objectsBeforeFork, objectsAfterFork, objectsAfterFork);
}

} // namespace __spiketrap

using namespace __spiketrap;

// unshare(CLONE_NEWUSER) and setns() into a user or mount namespace need a
// single-threaded process: the watcher thread (sampling, on by default) ends
// for the call and starts again after it. The system calls themselves, as
// the C library makes them.
namespace {
// System call Nr, as the C library makes it, with the watcher thread ended
// for it when Pause.
int withoutWatcher(bool Pause, long Nr, long A, long B) {
  bool Paused = Pause && watcherPause();
  long R = arch::rawSyscall(Nr, A, B, 0, 0, 0, 0);
  if (Paused)
    watcherResume();
  if (R < 0) {
    errno = int(-R);
    return -1;
  }
  return 0;
}
} // namespace

SPIKETRAP_INTERPOSE int unshare(int Flags) {
  return withoutWatcher(Flags & CLONE_NEWUSER, SYS_unshare, Flags, 0);
}

SPIKETRAP_INTERPOSE int setns(int Fd, int NsType) {
  return withoutWatcher(true, SYS_setns, Fd, NsType);
}

// A forked child that leaves through _exit (a fork-based server's worker:
// Redis's BGSAVE child) runs no atexit handler: its spikes are reported
// here, when it has any, as exit() would; then the system call, as the C
// library makes it. Anything else (the parent, a vfork child, a child with
// nothing to say) exits at once.
[[noreturn]] static void exitProcess(int Status) {
  if (ForkedChild &&
      ForkedChild == arch::rawSyscall(SYS_getpid, 0, 0, 0, 0, 0, 0))
    lifecycleForkedChildExits();
  for (;;)
    arch::rawSyscall(SYS_exit_group, Status, 0, 0, 0, 0, 0);
}

// As <unistd.h> and <stdlib.h> declare them (_Exit is __THROW).
SPIKETRAP_INTERPOSE __attribute__((noreturn)) void _exit(int Status) {
  exitProcess(Status);
}
SPIKETRAP_INTERPOSE __attribute__((noreturn)) void _Exit(int Status) noexcept {
  exitProcess(Status);
}

// Interposes dlclose for the program: spike records that point into the
// object get their own copies of its descriptors first. (If the object stays
// loaded, the copies are merely redundant.)
SPIKETRAP_INTERPOSE int dlclose(void *Handle) {
  ObjectsHeld Held; // no fork while the loader's lock is held
  {
    RecursionGuard Guard;
    uintptr_t Lo, Hi;
    if (sharedObjectOfHandle(Handle, &Lo, &Hi))
      lifecycleDetachRange(Lo, Hi);
  }
  if (!RealDlclose) // called before start-up
    RealDlclose = reinterpret_cast<DlcloseFn>(dlsym(RTLD_NEXT, "dlclose"));
  return RealDlclose ? RealDlclose(Handle) : -1;
}

// Replacing the program: the new one starts with the sampler's signal at its
// default action, which would end it, so none may be pending when the exec
// happens (samplerBeforeExec; a tick queued while the kernel loads the new
// program would do it). glibc's exec functions reach its execve past ours:
// each is wrapped. posix_spawn, system and popen exec in a new process, with
// no timer of ours and nothing pending: nothing to do there. (Under a
// sanitizer nothing samples: the sanitizer's own wrappers stay in place.)
#if SPIKETRAP_INTERPOSE_WAITS
namespace __spiketrap {
namespace {
class ExecGuard {
  bool Stopped;

public:
  ExecGuard() : Stopped(samplerBeforeExec()) {}
  // The exec failed: errno is the caller's answer.
  ~ExecGuard() {
    if (Stopped)
      samplerAfterFailedExec();
  }
};

int syscallResult(long R) {
  if (R >= 0)
    return int(R);
  errno = int(-R);
  return -1;
}

int execveGuarded(const char *Path, char *const Argv[], char *const Envp[]) {
  ExecGuard Guard;
  if (RealExecve)
    return RealExecve(Path, Argv, Envp);
  // A static program: glibc's execve is the system call.
  return syscallResult(arch::rawSyscall(SYS_execve, long(Path), long(Argv),
                                        long(Envp), 0, 0, 0));
}

// glibc's execveat is the system call (fexecve: with an empty path).
int execveatGuarded(int Fd, const char *Path, char *const Argv[],
                    char *const Envp[], int Flags) {
  ExecGuard Guard;
  return syscallResult(arch::rawSyscall(SYS_execveat, Fd, long(Path),
                                        long(Argv), long(Envp), Flags, 0));
}

int execvpGuarded(const char *File, char *const Argv[], char *const Envp[]) {
  ExecGuard Guard;
  return RealExecvpe(File, Argv, Envp);
}

// execl & co.: the arguments after Arg0 up to the null pointer, counted
// first to make the array on the stack (as glibc does); then execle's
// environment, after the null pointer.
size_t countArgs(va_list Ap) {
  size_t N = 1;
  while (va_arg(Ap, const char *))
    ++N;
  return N;
}
char *const *fillArgs(char **Argv, const char *Arg0, size_t N, bool WithEnvp,
                      va_list Ap) {
  Argv[0] = const_cast<char *>(Arg0);
  for (size_t I = 1; I <= N; ++I) // the null pointer included
    Argv[I] = va_arg(Ap, char *);
  return WithEnvp ? va_arg(Ap, char *const *) : environ;
}
#define SPIKETRAP_EXECL_ARGV(Argv, Arg0, Envp, WithEnvp)                       \
  va_list Ap, Copy;                                                            \
  va_start(Ap, Arg0);                                                          \
  va_copy(Copy, Ap);                                                           \
  size_t N = countArgs(Copy);                                                  \
  va_end(Copy);                                                                \
  char **Argv =                                                                \
      static_cast<char **>(__builtin_alloca((N + 1) * sizeof(char *)));        \
  char *const *Envp = fillArgs(Argv, Arg0, N, WithEnvp, Ap);                   \
  va_end(Ap)
} // namespace
} // namespace __spiketrap

using namespace __spiketrap;

SPIKETRAP_INTERPOSE int execve(const char *Path, char *const Argv[],
                               char *const Envp[]) noexcept {
  return execveGuarded(Path, Argv, Envp);
}
SPIKETRAP_INTERPOSE int execv(const char *Path, char *const Argv[]) noexcept {
  return execveGuarded(Path, Argv, environ);
}
SPIKETRAP_INTERPOSE int execvp(const char *File, char *const Argv[]) noexcept {
  return execvpGuarded(File, Argv, environ);
}
SPIKETRAP_INTERPOSE int execl(const char *Path, const char *Arg0,
                              ...) noexcept {
  SPIKETRAP_EXECL_ARGV(Argv, Arg0, Envp, false);
  return execveGuarded(Path, Argv, Envp);
}
SPIKETRAP_INTERPOSE int execle(const char *Path, const char *Arg0,
                               ...) noexcept {
  SPIKETRAP_EXECL_ARGV(Argv, Arg0, Envp, true);
  return execveGuarded(Path, Argv, Envp);
}
SPIKETRAP_INTERPOSE int execlp(const char *File, const char *Arg0,
                               ...) noexcept {
  SPIKETRAP_EXECL_ARGV(Argv, Arg0, Envp, false);
  return execvpGuarded(File, Argv, Envp);
}
SPIKETRAP_INTERPOSE int execvpe(const char *File, char *const Argv[],
                                char *const Envp[]) noexcept {
  return execvpGuarded(File, Argv, Envp);
}
SPIKETRAP_INTERPOSE int execveat(int Fd, const char *Path, char *const Argv[],
                                 char *const Envp[], int Flags) noexcept {
  return execveatGuarded(Fd, Path, Argv, Envp, Flags);
}
SPIKETRAP_INTERPOSE int fexecve(int Fd, char *const Argv[],
                                char *const Envp[]) noexcept {
  return execveatGuarded(Fd, "", Argv, Envp, AT_EMPTY_PATH);
}
#endif

#if SPIKETRAP_INTERPOSE_WAITS
// glibc's prctl is the system call; so is ours, with the filter noted first.
// (Under a sanitizer its interceptor stays in place.)
SPIKETRAP_INTERPOSE int prctl(int Option, ...) {
  va_list Ap;
  va_start(Ap, Option);
  long A[4];
  for (long &V : A)
    V = va_arg(Ap, long);
  va_end(Ap);
  if (Option == PR_SET_SECCOMP)
    __spiketrap::sandboxComing();
  long R = __spiketrap::arch::rawSyscall(SYS_prctl, Option, A[0], A[1], A[2],
                                         A[3], 0);
  if (R < 0 && R > -4096) {
    errno = int(-R);
    return -1;
  }
  return int(R);
}
#endif
