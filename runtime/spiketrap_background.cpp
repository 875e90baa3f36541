//===- spiketrap_background.cpp - The runtime's own threads ---------------===//
//
// The live log and the report-on-signal each run on a thread of their own,
// never on a thread the program is timing.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_background.h"
#include "spiketrap_arch.h"
#include "spiketrap_procread.h"
#include "spiketrap_registry.h"
#include "spiketrap_thread.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

uint32_t Running; // the runtime's threads
// Their kernel thread ids (0: a free entry), told apart from the
// program's threads where /proc cannot count them.
constexpr int kMaxOwn = 8;
uint32_t OwnTids[kMaxOwn];

struct Start {
  void (*Body)(void *);
  void *Arg;
};

void *threadMain(void *P) {
  // Hooks reached from here (an instrumented malloc or free) return at once.
  RecursionGuard Guard;
  // Called by the C library's thread start, as any start routine.
  noteThreadRoot(__builtin_frame_address(0));
  Start S = *static_cast<Start *>(P);
  free(P);
  uint32_t Tid = uint32_t(syscall(SYS_gettid)), *Own = nullptr;
  for (uint32_t &E : OwnTids) {
    uint32_t Zero = 0;
    if (__atomic_compare_exchange_n(&E, &Zero, Tid, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      Own = &E;
      break;
    }
  }
  S.Body(S.Arg);
  if (Own)
    __atomic_store_n(Own, 0, __ATOMIC_RELAXED);
  return nullptr;
}

} // namespace

bool startBackgroundThread(void (*Body)(void *), void *Arg, pthread_t *Joinable,
                           size_t StackSize) {
  // The allocations here and in pthread_create are the runtime's, not the
  // program's: an instrumented malloc is not timed for them.
  RecursionGuard Guard;
  auto *S = static_cast<Start *>(malloc(sizeof(Start)));
  if (!S)
    return false;
  *S = {Body, Arg};
  // The thread inherits a full signal mask: the program's handlers keep
  // running on the program's threads.
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  pthread_t T;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  if (StackSize)
    pthread_attr_setstacksize(&Attr, StackSize);
  threadRootComing(true);
  int Err = pthread_create(&T, &Attr, threadMain, S);
  pthread_attr_destroy(&Attr);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  if (Err) {
    threadRootComing(false); // nobody will measure it now
    free(S);
    return false;
  }
  if (Joinable)
    *Joinable = T;
  else
    pthread_detach(T);
  __atomic_fetch_add(&Running, 1, __ATOMIC_RELAXED);
  return true;
}

void backgroundThreadJoined() {
  __atomic_fetch_sub(&Running, 1, __ATOMIC_RELAXED);
}

void backgroundMeasureThreadRoot() {
  pthread_t T;
  if (startBackgroundThread([](void *) {}, nullptr, &T)) {
    pthread_join(T, nullptr);
    backgroundThreadJoined();
  }
}

namespace {
// Field Index (from 3, the state) of a /proc stat file, after the command
// name's ')'; null when unreadable.
const char *statField(const char *Path, char *Buf, size_t Size, int Index) {
  // Through the reader: a program whose descriptor table is full still
  // ends (it hung, the watcher its last thread).
  if (!procRead(Path, Buf, Size))
    return nullptr;
  const char *P = strrchr(Buf, ')');
  for (int Field = 2; P && Field < Index; ++Field)
    P = strchr(P + 1, ' ');
  return P ? P + 1 : nullptr;
}
} // namespace

namespace {
// Without /proc (a container or chroot that has none): the threads the
// registry knew have all gone, the first one included; is any thread left
// that never ran a hook? Found by asking the kernel for each thread id
// (tgkill with no signal: ~1.4 s for the 4M ids Linux may hand out, once;
// later looks ask again only for the threads found).
uint32_t Unknown[64];
uint32_t NumUnknown;

bool ours(uint32_t Tid) {
  for (uint32_t &E : OwnTids)
    if (__atomic_load_n(&E, __ATOMIC_RELAXED) == Tid)
      return true;
  return false;
}

bool threadAlive(long Pid, uint32_t Tid) {
  return arch::rawSyscall(SYS_tgkill, Pid, long(Tid), 0, 0, 0, 0) == 0;
}

bool goneWithoutProc() {
  if (!registeredThreadsGone())
    return false;
  long Pid = long(getpid());
  uint32_t Kept = 0;
  for (uint32_t I = 0; I < NumUnknown; ++I)
    if (threadAlive(Pid, Unknown[I]))
      Unknown[Kept++] = Unknown[I];
  NumUnknown = Kept;
  if (NumUnknown)
    return false;
  constexpr uint32_t kPidMaxLimit = 4194304; // the kernel's PID_MAX_LIMIT
  for (uint32_t Tid = 1; Tid < kPidMaxLimit; ++Tid)
    if (Tid != uint32_t(Pid) && threadAlive(Pid, Tid) && !ours(Tid) &&
        NumUnknown < sizeof(Unknown) / sizeof(Unknown[0]))
      Unknown[NumUnknown++] = Tid;
  return NumUnknown == 0;
}
} // namespace

bool programThreadsGone() {
  auto Threads = [] {
    char Buf[1024];
    const char *P = statField("/proc/self/stat", Buf, sizeof(Buf), 20);
    return P ? strtol(P, nullptr, 10) : 0;
  };
  long Ours = long(__atomic_load_n(&Running, __ATOMIC_RELAXED));
  long N = Threads();
  if (N <= 0 && procUnreadable())
    return goneWithoutProc();
  if (N <= 0 || N > Ours + 1)
    return false;
  if (N <= Ours)
    return true;
  // One more: the first thread, which stays a zombie (and counted) when it
  // ends before the others, is it still running?
  char Buf[1024], Path[64];
  snprintf(Path, sizeof(Path), "/proc/self/task/%d/stat", int(getpid()));
  const char *P = statField(Path, Buf, sizeof(Buf), 3);
  if (!P || *P != 'Z')
    return false;
  // Counted again now that it is a zombie, which starts no thread: the
  // first count may be from before it started its last ones.
  N = Threads();
  return N > 0 && N <= Ours + 1;
}

void backgroundAfterForkChild() { Running = 0; }

} // namespace __spiketrap
