//===- spiketrap_sandbox.cpp - Programs that sandbox themselves -----------===//
//
// A killing filter (SECCOMP_RET_KILL_*) ends the process at the first call
// it refuses, so the runtime must see the filter before it comes: prctl
// (PR_SET_SECCOMP) and syscall(SYS_seccomp) are interposed, and note it
// before the program's call goes in. A filter installed past them (inline
// assembly) is found by prctl(PR_GET_SECCOMP) before each batch of patches
// and before the report: one system call every filter we know lets through
// (strict mode, which kills it, only comes through the interposed calls).
// A filter the process started under is the system's (a container's), not
// the program's: only the interposed calls tell of one added after start.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_sandbox.h"
#include "spiketrap_arch.h"
#include "spiketrap_defs.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_sampler.h"
#include "spiketrap_waits.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

namespace __spiketrap {

namespace {
bool Sandboxed;
// A filter the process started under (a container's: Docker's default
// profile answers EPERM) is not one the program chose after start: the
// runtime's start-up got past it, and it runs on as before.
bool FilteredAtStart;
} // namespace

void sandboxInit() {
  FilteredAtStart =
      arch::rawSyscall(SYS_prctl, PR_GET_SECCOMP, 0, 0, 0, 0, 0) > 0;
}

bool sandboxed() { return __atomic_load_n(&Sandboxed, __ATOMIC_ACQUIRE); }

bool sandboxCheck() {
  if (sandboxed())
    return true;
  if (!FilteredAtStart &&
      arch::rawSyscall(SYS_prctl, PR_GET_SECCOMP, 0, 0, 0, 0, 0) > 0)
    __atomic_store_n(&Sandboxed, true, __ATOMIC_RELEASE);
  return sandboxed();
}

void sandboxComing() {
  if (__atomic_exchange_n(&Sandboxed, true, __ATOMIC_ACQ_REL))
    return;
  samplerStopForRun();
  runDelayStop();
}

} // namespace __spiketrap

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
