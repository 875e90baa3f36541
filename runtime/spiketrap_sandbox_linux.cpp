//===- spiketrap_sandbox_linux.cpp - Programs that sandbox themselves ----===//
//
// A killing filter (SECCOMP_RET_KILL_*) ends the process at the first call
// it refuses, so the runtime must see the filter before it comes: prctl
// (PR_SET_SECCOMP, spiketrap_lifecycle_linux.cpp) and syscall(SYS_seccomp,
// spiketrap_waits_calls_linux.cpp) are interposed, and note it before the program's
// call goes in (sandboxComing). A filter installed past them (inline
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

#include <sys/prctl.h>
#include <sys/syscall.h>

namespace __spiketrap {

bool Sandboxed;
namespace {
// A filter the process started under (a container's: Docker's default
// profile answers EPERM) is not one the program chose after start: the
// runtime's start-up got past it, and it runs on as before.
bool FilteredAtStart;
} // namespace

void sandboxInit() {
  FilteredAtStart =
      arch::rawSyscall(SYS_prctl, PR_GET_SECCOMP, 0, 0, 0, 0, 0) > 0;
}

bool sandboxCheck() {
  if (sandboxed())
    return true;
  if (!FilteredAtStart &&
      arch::rawSyscall(SYS_prctl, PR_GET_SECCOMP, 0, 0, 0, 0, 0) > 0)
    __atomic_store_n(&Sandboxed, true, __ATOMIC_RELEASE);
  return sandboxed();
}

bool sandboxNote() {
  return !__atomic_exchange_n(&Sandboxed, true, __ATOMIC_ACQ_REL);
}

} // namespace __spiketrap
