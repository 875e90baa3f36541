//===- spiketrap_process_linux.cpp - Threads and processes on Linux ------===//
//
// The Threads and processes section of spiketrap_platform.h: a thread's
// kernel id (gettid, a raw system call: glibc before 2.30 has no wrapper),
// whether it is still in the process (tgkill with no signal), a nap (a raw
// nanosleep: that C library name is our own wait's), a thread's name and
// the timer slack (prctl), the kernel's clock source (sysfs), and the
// process's threads as /proc counts them (read through the reader thread:
// a program whose descriptor table is full still ends).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_platform.h"
#include "spiketrap_procread.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

uint32_t threadId() { return uint32_t(syscall(SYS_gettid)); }

// The first thread's id is the process's.
bool isFirstThread(uint32_t Tid) { return Tid == uint32_t(getpid()); }

bool ownThreadName(char *Out) { return prctl(PR_GET_NAME, Out) == 0; }

bool threadAlive(uint32_t Tid) {
  return arch::rawSyscall(SYS_tgkill, getpid(), long(Tid), 0, 0, 0, 0) == 0;
}

void napNs(uint64_t Ns) {
  struct timespec Ts = {time_t(Ns / 1000000000), long(Ns % 1000000000)};
  arch::rawSyscall(SYS_nanosleep, long(&Ts), 0, 0, 0, 0, 0);
}

void setTimerSlackNs(uint64_t Ns) { prctl(PR_SET_TIMERSLACK, Ns); }

bool kernelClocksourceIs(const char *Name) {
  int Fd = open("/sys/devices/system/clocksource/clocksource0/"
                "current_clocksource",
                O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  char Buf[16] = {};
  ssize_t N = read(Fd, Buf, sizeof(Buf) - 1);
  close(Fd);
  size_t Len = strlen(Name);
  return N >= ssize_t(Len) && strncmp(Buf, Name, Len) == 0;
}

namespace {
// Field Index (from 3, the state) of a /proc stat file, after the command
// name's ')'; null when unreadable.
const char *statField(const char *Path, char *Buf, size_t Size, int Index) {
  if (!procRead(Path, Buf, Size))
    return nullptr;
  const char *P = strrchr(Buf, ')');
  for (int Field = 2; P && Field < Index; ++Field)
    P = strchr(P + 1, ' ');
  return P ? P + 1 : nullptr;
}
} // namespace

uint32_t processThreads() {
  char Buf[1024];
  const char *P = statField("/proc/self/stat", Buf, sizeof(Buf), 20);
  long N = P ? strtol(P, nullptr, 10) : 0;
  return N > 0 ? uint32_t(N) : 0;
}

// The first thread stays a zombie, and counted, when it ends first.
bool firstThreadEnded() {
  char Buf[1024], Path[64];
  snprintf(Path, sizeof(Path), "/proc/self/task/%d/stat", int(getpid()));
  const char *P = statField(Path, Buf, sizeof(Buf), 3);
  return P && *P == 'Z';
}

uint32_t scanThreadIds(uint32_t *Out, uint32_t Max, bool (*Skip)(uint32_t)) {
  constexpr uint32_t kPidMaxLimit = 4194304; // the kernel's PID_MAX_LIMIT
  uint32_t Pid = uint32_t(getpid()), Self = threadId(), N = 0;
  for (uint32_t Tid = 1; Tid < kPidMaxLimit && N < Max; ++Tid)
    if (Tid != Pid && Tid != Self && threadAlive(Tid) && !Skip(Tid))
      Out[N++] = Tid;
  return N;
}

} // namespace __spiketrap
