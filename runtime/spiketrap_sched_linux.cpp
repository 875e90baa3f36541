//===- spiketrap_sched_linux.cpp - How a thread ran, on Linux -------------===//
//
// The Scheduling section of spiketrap_platform.h. The readings are raw
// system calls: the thread's own may be in a signal handler, and no
// interposed read must see them. The /proc files are read by the runtime's
// reader thread, in a descriptor table of its own (spiketrap_procread.h):
// the program's descriptors are never taken, not even for a moment, and no
// descriptor of ours stays in its table for its closefrom to take.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_platform.h"
#include "spiketrap_procread.h"

#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>

namespace __spiketrap {

namespace {
// Reads /proc/self/task/<Tid>/<Name> into Text (NUL-terminated); the bytes
// read, or 0.
size_t readTaskFile(uint32_t Tid, const char *Name, char *Text, size_t Size) {
  char Path[64] = "/proc/self/task/";
  size_t Len = sizeof("/proc/self/task/") - 1;
  char Digits[10];
  size_t N = 0;
  do
    Digits[N++] = char('0' + Tid % 10);
  while ((Tid /= 10) && N < sizeof(Digits));
  while (N)
    Path[Len++] = Digits[--N];
  Path[Len++] = '/';
  while (*Name && Len + 1 < sizeof(Path))
    Path[Len++] = *Name++;
  Path[Len] = 0;
  return procRead(Path, Text, Size);
}

} // namespace

// From its schedstat ("<ns on the CPU> <ns waiting for one> <times on the
// CPU>").
const char *runDelayNeverWhy() { return nullptr; }

RunDelayRead threadRunDelayNs(uint32_t Tid, uint64_t &Ns) {
  char Text[96];
  size_t Got = readTaskFile(Tid, "schedstat", Text, sizeof(Text));
  if (!Got)
    return RunDelayRead::Failed;
  uint64_t Field[3] = {};
  const char *P = Text, *End = Text + Got;
  for (uint64_t &F : Field) {
    if (P == End || *P < '0' || *P > '9')
      return RunDelayRead::Failed;
    for (; P != End && *P >= '0' && *P <= '9'; ++P)
      F = F * 10 + uint64_t(*P - '0');
    if (P != End)
      ++P; // the space, or the last newline
  }
  // A thread that runs has been given a CPU at least once: a kernel built
  // without the accounting prints "0 0 0".
  if (!Field[2])
    return RunDelayRead::NotKept;
  Ns = Field[1];
  return RunDelayRead::Ok;
}

// Thread Tid's voluntary context switches (times it blocked), from its
// status, or UINT64_MAX.
uint64_t threadBlockedCount(uint32_t Tid) {
  char Text[4096];
  if (!readTaskFile(Tid, "status", Text, sizeof(Text)))
    return UINT64_MAX;
  // Asleep now (blocked in a call the runtime does not interpose): the
  // switch that put it to sleep is counted, its wake-up will not be, so a
  // count read now would make the thread look as if it never blocked
  // since. Unknown instead.
  if (const char *S = strstr(Text, "\nState:")) {
    S += 7;
    while (*S == ' ' || *S == '\t')
      ++S;
    if (*S == 'S' || *S == 'D')
      return UINT64_MAX;
  }
  static const char Key[] = "\nvoluntary_ctxt_switches:";
  const char *P = strstr(Text, Key);
  if (!P)
    return UINT64_MAX;
  P += sizeof(Key) - 1;
  while (*P == ' ' || *P == '\t')
    ++P;
  uint64_t V = 0;
  for (; *P >= '0' && *P <= '9'; ++P)
    V = V * 10 + uint64_t(*P - '0');
  return V;
}

uint64_t ownBlockedCount() {
  struct rusage Use;
  if (arch::rawSyscall(SYS_getrusage, RUSAGE_THREAD, long(&Use), 0, 0, 0, 0))
    return UINT64_MAX;
  return uint64_t(Use.ru_nvcsw);
}

// The CPU-time clock of a thread, as pthread_getcpuclockid makes it: the
// kernel's CPUCLOCK_SCHED per thread.
uint64_t threadCpuNsOf(uint32_t Tid) {
  clockid_t Clock = clockid_t((~uint64_t(Tid) << 3) | 6);
  timespec T;
  if (arch::rawSyscall(SYS_clock_gettime, Clock, long(&T), 0, 0, 0, 0))
    return 0;
  return uint64_t(T.tv_sec) * 1000000000 + uint64_t(T.tv_nsec);
}

} // namespace __spiketrap
