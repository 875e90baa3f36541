//===- spiketrap_sandbox.h - Programs that sandbox themselves --*- C++ -*-===//
//
// A program may install a seccomp filter after start (OpenSSH's allowlist,
// a rule that kills mprotect with PROT_EXEC). The runtime cannot know which
// calls the filter lets through, so from then on it makes none of its own:
// no patching, no signals or timers, no /proc reads, no report.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SANDBOX_H
#define SPIKETRAP_SANDBOX_H

#include "spiketrap_defs.h"

namespace __spiketrap {

extern bool Sandboxed SPIKETRAP_INTERNAL;

// At start-up: whether the process started under a filter (a container's).
void sandboxInit();

// A filter is on (or coming): the runtime stays out of the kernel. Only
// memory: for the hooks' paths.
inline bool sandboxed() {
  return __atomic_load_n(&Sandboxed, __ATOMIC_ACQUIRE);
}

// As sandboxed(), and where no interposed call said so, asks the kernel
// (prctl(PR_GET_SECCOMP): a filter installed by a raw system call), unless
// the process started under one. Before the runtime's own system calls
// that are not on a hot path.
bool sandboxCheck();

// Sets the flag; true the first time (sandboxComing, spiketrap_waits.h,
// then stops sampling and the run-delay readings).
bool sandboxNote();

} // namespace __spiketrap

#endif
