//===- spiketrap_procread_linux.cpp - /proc without the program's table ---===//
//
// Requests go through a few slots, each with its own copy of the path and
// the text, so a caller that gave up waiting (the reader was not scheduled
// in time) leaves nothing on its stack for the reader to write. A slot
// moves Free -> Claimed (the caller fills it) -> Asked -> Reading (the
// reader took it) -> Answered -> Free (the caller copied it out); a caller
// that gives up frees an Asked slot itself, or marks a Reading one Dropped
// for the reader to free. The caller spins a little, then sleeps on the
// slot (a futex) until the answer or its deadline: its CPU goes to the
// reader, not for a whole time slice to whatever runs (sched_yield on a
// loaded machine: a 20 ms step was preempted for 150 ms), and a busy spin
// alone found no CPU for the reader beside two busy loops. Such a sleep is
// a voluntary context switch, which the run-delay arithmetic compares:
// the thread counts its own (procReadSleeps) for it to take out.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_procread.h"
#include "spiketrap_arch.h"
#include "spiketrap_clock.h"
#include "spiketrap_platform.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_thread.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE (1U << 1)
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

namespace __spiketrap {

namespace {

enum : uint32_t { Free, Claimed, Asked, Reading, Answered, Dropped };

constexpr size_t kSlots = 8, kPathSize = 64, kTextSize = 4096;
// How long a caller spins before it sleeps (the reader's ~20 us of system
// calls, when it has a CPU at once), and waits at most (a loaded machine
// may keep the reader off a CPU; the reading is then skipped, as a failed
// one).
constexpr uint64_t kSpinNs = 30000, kWaitNs = 3000000;

struct Slot {
  uint32_t State;
  size_t Got;
  char Path[kPathSize];
  char Text[kTextSize];
};
Slot Slots[kSlots];

uint32_t Work; // bumped for each request (the reader sleeps on it)
int Stop;      // the reader is asked to end
bool Running;  // the reader has its own table and serves
pthread_t Thread;
bool Started; // the thread exists (to be joined)
bool Paused;  // stopped for unshare(): no reading until it is back
// verbosity=1's counts: readings answered, given up (or all slots busy),
// and the callers' wall time waiting for an answer.
uint64_t Answers, GaveUp, WaitedNs;

size_t readDirect(const char *Path, char *Text, size_t Size) {
  long Fd = arch::rawSyscall(SYS_openat, AT_FDCWD, long(Path),
                             O_RDONLY | O_CLOEXEC, 0, 0, 0);
  if (Fd < 0)
    return 0;
  long Got =
      arch::rawSyscall(SYS_read, Fd, long(Text), long(Size - 1), 0, 0, 0);
  arch::rawSyscall(SYS_close, Fd, 0, 0, 0, 0, 0);
  if (Got <= 0)
    return 0;
  Text[Got] = 0;
  return size_t(Got);
}

// A table of the thread's own, with nothing of the program's in it.
bool ownTable() {
  if (arch::rawSyscall(SYS_close_range, 0, ~0U, CLOSE_RANGE_UNSHARE, 0, 0, 0) ==
      0)
    return true;
  // Before Linux 5.9: unshare, then close what came along.
  if (arch::rawSyscall(SYS_unshare, CLONE_FILES, 0, 0, 0, 0, 0) != 0)
    return false;
  struct rlimit L;
  rlim_t Max = getrlimit(RLIMIT_NOFILE, &L) == 0 ? L.rlim_cur : 1024;
  Max = Max < 65536 ? Max : 65536;
  for (rlim_t Fd = 0; Fd < Max; ++Fd)
    arch::rawSyscall(SYS_close, long(Fd), 0, 0, 0, 0, 0);
  return true;
}

void serve(Slot &S) {
  uint32_t Want = Asked;
  if (!__atomic_compare_exchange_n(&S.State, &Want, Reading, false,
                                   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return;
  S.Got = readDirect(S.Path, S.Text, sizeof(S.Text));
  Want = Reading;
  if (__atomic_compare_exchange_n(&S.State, &Want, Answered, false,
                                  __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    futexWake(&S.State);
  else
    __atomic_store_n(&S.State, Free, __ATOMIC_RELEASE); // Dropped
}

} // namespace

void procReaderLoop(void *) {
  if (!ownTable())
    return;
  __atomic_store_n(&Running, true, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&Stop, __ATOMIC_ACQUIRE)) {
    uint32_t Seen = __atomic_load_n(&Work, __ATOMIC_ACQUIRE);
    for (Slot &S : Slots)
      if (__atomic_load_n(&S.State, __ATOMIC_ACQUIRE) == Asked)
        serve(S);
    futexWait(&Work, Seen, nullptr);
  }
  __atomic_store_n(&Running, false, __ATOMIC_RELEASE);
}

namespace {
bool onReader() {
  return __atomic_load_n(&Started, __ATOMIC_ACQUIRE) &&
         pthread_equal(pthread_self(), Thread);
}

} // namespace

size_t procRead(const char *Path, char *Text, size_t Size) {
  if (sandboxed() || Size == 0)
    return 0;
  size_t Len = strlen(Path);
  if (__atomic_load_n(&Paused, __ATOMIC_ACQUIRE))
    return 0;
  // Start-up, or no reader could be started (then as before: a program
  // whose last thread ends with pthread_exit must still end).
  if (onReader() || !__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
    return readDirect(Path, Text, Size);
  // Its table not ready yet: no reading, rather than one that takes the
  // program's descriptor.
  if (Len >= kPathSize || !__atomic_load_n(&Running, __ATOMIC_ACQUIRE))
    return 0;
  Slot *S = nullptr;
  for (Slot &C : Slots) {
    uint32_t Want = Free;
    if (__atomic_compare_exchange_n(&C.State, &Want, Claimed, false,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      S = &C;
      break;
    }
  }
  if (!S) {
    __atomic_fetch_add(&GaveUp, 1, __ATOMIC_RELAXED);
    return 0; // all busy: as a failed reading
  }
  memcpy(S->Path, Path, Len + 1);
  __atomic_store_n(&S->State, Asked, __ATOMIC_RELEASE);
  __atomic_fetch_add(&Work, 1, __ATOMIC_RELEASE);
  futexWake(&Work);
  uint64_t Start = monotonicNs();
  for (;;) {
    uint32_t State = __atomic_load_n(&S->State, __ATOMIC_ACQUIRE);
    if (State == Answered)
      break;
    uint64_t Waited = monotonicNs() - Start;
    if (Waited > kWaitNs) {
      uint32_t Want = State;
      uint32_t Then = State == Asked ? Free : Dropped;
      if (__atomic_compare_exchange_n(&S->State, &Want, Then, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        __atomic_fetch_add(&GaveUp, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&WaitedNs, Waited, __ATOMIC_RELAXED);
        return 0;
      }
      continue; // taken or answered meanwhile
    }
    // The watcher sleeps too, though it may hold the registry lock: a
    // watcher that spun kept the CPU the reader needed, 1.8 ms a reading
    // on 2 cores beside one busy thread (~50 us asleep).
    if (Waited < kSpinNs) {
      arch::spinHint();
      continue;
    }
    uint64_t Left = kWaitNs - Waited;
    timespec T = {time_t(Left / 1000000000), long(Left % 1000000000)};
    long R = futexWait(&S->State, State, &T);
    if (R != -EAGAIN)
      ++threadState.ProcReadSleeps; // it slept (or a signal woke it)
  }
  __atomic_fetch_add(&Answers, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&WaitedNs, monotonicNs() - Start, __ATOMIC_RELAXED);
  size_t Got = S->Got < Size ? S->Got : Size - 1;
  memcpy(Text, S->Text, Got);
  Text[Got] = 0;
  __atomic_store_n(&S->State, Free, __ATOMIC_RELEASE);
  return Got;
}

ProcReaderStats procReaderStats() {
  ProcReaderStats R = {__atomic_load_n(&Answers, __ATOMIC_RELAXED),
                       __atomic_load_n(&GaveUp, __ATOMIC_RELAXED), 0,
                       __atomic_load_n(&WaitedNs, __ATOMIC_RELAXED)};
  clockid_t Clock;
  timespec Cpu;
  if (__atomic_load_n(&Started, __ATOMIC_ACQUIRE) &&
      pthread_getcpuclockid(Thread, &Clock) == 0 &&
      clock_gettime(Clock, &Cpu) == 0)
    R.CpuNs = uint64_t(Cpu.tv_sec) * 1000000000 + uint64_t(Cpu.tv_nsec);
  return R;
}

bool procReaderPrepare() {
  __atomic_store_n(&Stop, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&Running, false, __ATOMIC_RELAXED);
  for (Slot &S : Slots) // a forked child: the parent's requests are gone
    S.State = Free;
  Answers = GaveUp = WaitedNs = 0; // and its counts are the parent's
  return true;
}

void procReaderStarted(const pthread_t *T) {
  if (T)
    Thread = *T;
  __atomic_store_n(&Started, T != nullptr, __ATOMIC_RELEASE);
  __atomic_store_n(&Paused, false, __ATOMIC_RELEASE);
}

bool procUnreadable() {
  if (!__atomic_load_n(&Running, __ATOMIC_ACQUIRE))
    return false;
  // Asked of the kernel without opening anything: the reader's access.
  return arch::rawSyscall(SYS_faccessat, AT_FDCWD, long("/proc/self/stat"),
                          R_OK, 0, 0, 0) != 0;
}

void procReaderAfterForkChild() {
  // The parent's reader did not come along: no readings until the child's
  // own runs (never one in the program's table).
  __atomic_store_n(&Running, false, __ATOMIC_RELEASE);
  __atomic_store_n(&Started, false, __ATOMIC_RELEASE);
}

bool procReaderStopping(pthread_t &T) {
  if (!__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
    return false;
  __atomic_store_n(&Paused, true, __ATOMIC_RELEASE);
  __atomic_store_n(&Stop, 1, __ATOMIC_RELEASE);
  __atomic_fetch_add(&Work, 1, __ATOMIC_RELEASE);
  futexWake(&Work);
  T = Thread;
  return true;
}

void procReaderStopped() {
  __atomic_store_n(&Started, false, __ATOMIC_RELEASE);
  __atomic_store_n(&Running, false, __ATOMIC_RELEASE);
}

} // namespace __spiketrap
