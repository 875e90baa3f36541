//===- spiketrap_process_linux.cpp - Threads and processes on Linux -----===//
//-*-===//
//
// The Threads and processes section of spiketrap_platform.h: a thread's
// kernel id (gettid, a raw system call: glibc before 2.30 has no wrapper).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <sys/syscall.h>
#include <unistd.h>

namespace __spiketrap {

uint32_t threadId() { return uint32_t(syscall(SYS_gettid)); }

} // namespace __spiketrap
