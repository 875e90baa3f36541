//===- spiketrap_background.cpp - The runtime's own threads ---------------===//
//
// The live log and the report-on-signal each run on a thread of their own,
// never on a thread the program is timing.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_background.h"
#include "spiketrap_procread.h"
#include "spiketrap_registry.h"
#include "spiketrap_thread.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

uint32_t Running; // the runtime's threads

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
  S.Body(S.Arg);
  return nullptr;
}

} // namespace

bool startBackgroundThread(void (*Body)(void *), void *Arg,
                           pthread_t *Joinable, size_t StackSize) {
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

bool programThreadsGone() {
  char Buf[1024];
  const char *P = statField("/proc/self/stat", Buf, sizeof(Buf), 20);
  long Threads = P ? strtol(P, nullptr, 10) : 0;
  long Ours = long(__atomic_load_n(&Running, __ATOMIC_RELAXED));
  if (Threads <= 0 || Threads > Ours + 1)
    return false;
  if (Threads <= Ours)
    return true;
  // One more: the first thread, which stays a zombie (and counted) when it
  // ends before the others, is it still running?
  char Path[64];
  snprintf(Path, sizeof(Path), "/proc/self/task/%d/stat", int(getpid()));
  P = statField(Path, Buf, sizeof(Buf), 3);
  return P && *P == 'Z';
}

void backgroundAfterForkChild() { Running = 0; }

} // namespace __spiketrap
