//===- spiketrap_process_linux.cpp - Threads and processes on Linux -----===//
//-*-===//
//
// The Threads and processes section of spiketrap_platform.h: a thread's
// kernel id (gettid, a raw system call: glibc before 2.30 has no wrapper),
// whether it is still in the process (tgkill with no signal), and a nap (a
// raw nanosleep: that C library name is our own wait's).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_platform.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

uint32_t threadId() { return uint32_t(syscall(SYS_gettid)); }

bool threadAlive(uint32_t Tid) {
  return arch::rawSyscall(SYS_tgkill, getpid(), long(Tid), 0, 0, 0, 0) == 0;
}

void napNs(uint64_t Ns) {
  struct timespec Ts = {time_t(Ns / 1000000000), long(Ns % 1000000000)};
  arch::rawSyscall(SYS_nanosleep, long(&Ts), 0, 0, 0, 0, 0);
}

} // namespace __spiketrap
