//===- spiketrap_background.cpp - The runtime's own threads ---------------===//
//
// The live log and the report-on-signal each run on a thread of their own,
// never on a thread the program is timing.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_background.h"
#include "spiketrap_platform.h"
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
  uint32_t Tid = threadId(), *Own = nullptr;
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

uint32_t backgroundThreads() {
  return __atomic_load_n(&Running, __ATOMIC_RELAXED);
}

bool backgroundThreadIs(uint32_t Tid) {
  for (uint32_t &E : OwnTids)
    if (__atomic_load_n(&E, __ATOMIC_RELAXED) == Tid)
      return true;
  return false;
}

void backgroundAfterForkChild() {
  Running = 0;
  for (uint32_t &E : OwnTids)
    E = 0;
}

} // namespace __spiketrap
