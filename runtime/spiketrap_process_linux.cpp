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
#include "spiketrap_registry.h"
#include "spiketrap_static.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern "C" SPIKETRAP_INTERNAL int __spiketrap_setname_np(pthread_t Thread,
                                                         const char *Name);

namespace __spiketrap {

static_assert(sizeof(sigset_t) <= 128, "AllSignalsHeld's room");

AllSignalsHeld::AllSignalsHeld() {
  sigset_t All;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, reinterpret_cast<sigset_t *>(Old));
}
AllSignalsHeld::~AllSignalsHeld() {
  pthread_sigmask(SIG_SETMASK, reinterpret_cast<sigset_t *>(Old), nullptr);
}

// RLIMIT_FSIZE's SIGXFSZ is blocked, so the write fails with EFBIG; the
// signal it left pending is taken back before the mask is restored.
FileSizeSignalHeld::FileSizeSignalHeld() {
  auto *S = reinterpret_cast<sigset_t *>(Set);
  sigemptyset(S);
  sigaddset(S, SIGXFSZ);
  pthread_sigmask(SIG_BLOCK, S, reinterpret_cast<sigset_t *>(Old));
  sigset_t Pending;
  WasPending = sigpending(&Pending) == 0 && sigismember(&Pending, SIGXFSZ);
}
FileSizeSignalHeld::~FileSizeSignalHeld() {
  timespec Zero = {};
  if (!WasPending) // one of ours, if any (standard signals do not queue)
    sigtimedwait(reinterpret_cast<sigset_t *>(Set), nullptr, &Zero);
  pthread_sigmask(SIG_SETMASK, reinterpret_cast<sigset_t *>(Old), nullptr);
}

// Not when a sanitizer's interceptor (weak too, linked first) or the
// program's own definition took pthread_setname_np's name.
bool threadRenamesSeen() {
  void *Bound = dlsym(RTLD_DEFAULT, "pthread_setname_np");
  return !Bound || Bound == reinterpret_cast<void *>(&__spiketrap_setname_np);
}

uint32_t threadId() { return uint32_t(syscall(SYS_gettid)); }

// The first thread's id is the process's.
bool isFirstThread(uint32_t Tid) { return Tid == uint32_t(getpid()); }
uint32_t firstThreadId() { return uint32_t(getpid()); }

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

using namespace __spiketrap;

// Interposes pthread_setname_np so a thread renamed after its first hook
// call is reported by its new name without a system call in the spike path.
// (prctl(PR_SET_NAME) and writes to /proc/.../comm are not seen: such a
// thread keeps the name it had at its first hook call.) A weak alias of
// the body, so threadRenamesSeen can tell whether calls reach it.
SPIKETRAP_INTERPOSE int pthread_setname_np(pthread_t Thread, const char *Name)
    __attribute__((alias("__spiketrap_setname_np")));
extern "C" int __spiketrap_setname_np(pthread_t Thread, const char *Name) {
  using Fn = int (*)(pthread_t, const char *);
  static Fn Real;
  if (!__atomic_load_n(&Real, __ATOMIC_ACQUIRE))
    __atomic_store_n(
        &Real, reinterpret_cast<Fn>(dlsym(RTLD_NEXT, "pthread_setname_np")),
        __ATOMIC_RELEASE);
  Fn F = __atomic_load_n(&Real, __ATOMIC_ACQUIRE);
  int Rc = F ? F(Thread, Name) : staticSetname(Thread, Name);
  if (Rc == 0)
    threadRenamed((unsigned long)Thread, Name);
  return Rc;
}
