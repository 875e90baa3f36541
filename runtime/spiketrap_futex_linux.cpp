//===- spiketrap_futex_linux.cpp - Waiting on a word on Linux ---*- C++ -*-===//
//
// The Waiting section of spiketrap_platform.h: private futexes, as raw
// system calls (no errno, no C library lock: callable from a signal
// handler, in a forked child and from the runtime's own threads).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_platform.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>

namespace __spiketrap {

long futexWait(void *Word, uint32_t Expected, const struct timespec *Timeout) {
  return arch::rawSyscall(SYS_futex, long(Word), FUTEX_WAIT_PRIVATE,
                          long(Expected), long(Timeout), 0, 0);
}

void futexWake(void *Word) {
  arch::rawSyscall(SYS_futex, long(Word), FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
}

} // namespace __spiketrap
