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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

uint32_t Running; // the runtime's threads
// Their kernel thread ids (0: not known yet), told apart from the program's
// threads where /proc cannot count them. A joinable thread's entry is let go
// by its joiner, once the kernel has let the thread go too.
constexpr int kMaxOwn = 8;
struct Own {
  bool Used;
  uint32_t Tid;
  pthread_t Handle;
};
Own Owns[kMaxOwn];

struct Start {
  void (*Body)(void *);
  void *Arg;
  Own *Slot; // null when all are taken
  bool Joinable;
};

Own *takeSlot() {
  for (Own &E : Owns) {
    bool Free = false;
    if (__atomic_compare_exchange_n(&E.Used, &Free, true, false,
                                    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      E.Handle = pthread_t(); // a joiner looks for its own, set once made
      return &E;
    }
  }
  return nullptr;
}

void freeSlot(Own *E) {
  __atomic_store_n(&E->Tid, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&E->Used, false, __ATOMIC_RELEASE);
}

void *threadMain(void *P) {
  // Hooks reached from here (an instrumented malloc or free) return at once.
  RecursionGuard Guard;
  // Called by the C library's thread start, as any start routine.
  noteThreadRoot(__builtin_frame_address(0));
  Start S = *static_cast<Start *>(P);
  free(P);
  if (S.Slot)
    __atomic_store_n(&S.Slot->Tid, threadId(), __ATOMIC_RELAXED);
  S.Body(S.Arg);
  if (S.Slot && !S.Joinable)
    freeSlot(S.Slot);
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
  Own *Slot = takeSlot(); // S is the thread's once it runs
  *S = {Body, Arg, Slot, Joinable != nullptr};
  AllSignalsHeld Held; // the thread inherits it
  pthread_t T;
  pthread_attr_t Attr;
  pthread_attr_init(&Attr);
  if (StackSize)
    pthread_attr_setstacksize(&Attr, StackSize);
  threadRootComing(true);
  int Err = pthread_create(&T, &Attr, threadMain, S);
  pthread_attr_destroy(&Attr);
  if (Err) {
    threadRootComing(false); // nobody will measure it now
    if (Slot)
      freeSlot(Slot);
    free(S);
    return false;
  }
  if (Joinable) {
    *Joinable = T;
    if (Slot)
      Slot->Handle = T;
  } else
    pthread_detach(T);
  __atomic_fetch_add(&Running, 1, __ATOMIC_RELAXED);
  return true;
}

void joinBackgroundThread(pthread_t T) {
  pthread_join(T, nullptr);
  __atomic_fetch_sub(&Running, 1, __ATOMIC_RELAXED);
  Own *Slot = nullptr;
  for (Own &E : Owns)
    if (__atomic_load_n(&E.Used, __ATOMIC_ACQUIRE) &&
        pthread_equal(E.Handle, T))
      Slot = &E;
  if (!Slot)
    return;
  // pthread_join returns when the thread has cleared its id, before the
  // kernel takes it out of the process: unshare(CLONE_NEWUSER) would still
  // count it. Gone is when its id no longer takes a signal (a second at
  // most: a kernel that refuses tgkill reads as gone).
  uint32_t Tid = __atomic_load_n(&Slot->Tid, __ATOMIC_RELAXED);
  for (int I = 0; Tid && I < 10000 && threadAlive(Tid); ++I)
    napNs(100000);
  freeSlot(Slot);
}

void backgroundMeasureThreadRoot() {
  pthread_t T;
  if (startBackgroundThread([](void *) {}, nullptr, &T)) {
    joinBackgroundThread(T);
  }
}

uint32_t backgroundThreads() {
  return __atomic_load_n(&Running, __ATOMIC_RELAXED);
}

bool backgroundThreadIs(uint32_t Tid) {
  for (Own &E : Owns)
    if (Tid && __atomic_load_n(&E.Tid, __ATOMIC_RELAXED) == Tid)
      return true;
  return false;
}

void backgroundAfterForkChild() {
  Running = 0;
  for (Own &E : Owns)
    E = {};
}

} // namespace __spiketrap
