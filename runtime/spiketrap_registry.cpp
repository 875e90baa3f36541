//===- spiketrap_registry.cpp - Thread registry ---------------------------===//
#include "spiketrap_registry.h"
#include "spiketrap_arch.h"
#include "spiketrap_clock.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_flags.h"
#include "spiketrap_init.h"
#include "spiketrap_kernel_events.h"
#include "spiketrap_platform.h"
#include "spiketrap_recent.h"
#include "spiketrap_sampler.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_spinlock.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

__thread ThreadState threadState __attribute__((tls_model("initial-exec")));
uint64_t globalThresholdTicks = kNever;
bool exitFastPath;

namespace {

// Guards the registry. Taken only on a thread's first hook call, at thread
// exit, by the report and across fork, each with the thread marked Busy, so
// a signal handler's hooks on the same thread never wait for it.
SpinLock RegistryLock;
ThreadState *Head;
ThreadTotals Gone; // counters of threads that have exited
uint64_t Registered;
bool MainLeft; // the process's first thread ran its exit (pthread_exit)
pthread_key_t ExitKey;
bool ExitKeyReady;
// Whether the program's pthread_setname_np calls reach ours: not when a
// sanitizer's interceptor (weak too, linked first) or the program's own
// definition took the name.
bool RenamesSeen = true;
// How far a start routine's frame lies below its thread's descriptor (0:
// not measured yet), and how much deeper a thread's first timed call may
// be and still be its body (an uninstrumented trampoline's frame).
uintptr_t RootDistance;
bool RootComing; // a thread of the runtime's is starting: it measures it
constexpr uintptr_t kRootSlack = 512;
// The frame arrays (each followed by the capture's room) of threads that
// have exited, for the next threads to register (under RegistryLock; the
// first word of each links them).
void *FreeFrames;

Frame *takeFrames() {
  RegistryLock.lock();
  void *P = FreeFrames;
  if (P)
    FreeFrames = *static_cast<void **>(P);
  RegistryLock.unlock();
  if (P)
    return static_cast<Frame *>(memset(P, 0, kMaxDepth * sizeof(Frame)));
  P = mapPages(kMaxDepth * sizeof(Frame) + kCaptureScratchBytes);
  return static_cast<Frame *>(P);
}

void giveBackFrames(ThreadState &T) { // under RegistryLock
  if (!T.Frames)
    return;
  *reinterpret_cast<void **>(T.Frames) = FreeFrames;
  FreeFrames = T.Frames;
  T.Frames = nullptr;
}

// The thread name lives in two words so a rename on another thread and a
// spike being recorded never see half of each other's bytes.
void storeName(ThreadState &T, const char *Name) {
  uint64_t W[2] = {};
  memcpy(W, Name, strnlen(Name, sizeof(W) - 1));
  auto *Dst = reinterpret_cast<uint64_t *>(T.KernelName);
  __atomic_store_n(&Dst[0], W[0], __ATOMIC_RELAXED);
  __atomic_store_n(&Dst[1], W[1], __ATOMIC_RELAXED);
}

void onThreadExit(void *P) {
  ThreadState &T = *static_cast<ThreadState *>(P);
  T.Status = StatusBusy;
  RegistryLock.lock();
  if (isFirstThread(T.Tid))
    MainLeft = true;
  if (T.Prev)
    T.Prev->Next = T.Next;
  else
    Head = T.Next;
  if (T.Next)
    T.Next->Prev = T.Prev;
  Gone.Calls += T.Calls;
  Gone.Overflows += T.Overflows;
  Gone.Lost += T.Lost;
  Gone.LostThreads += T.Lost != 0;
  RegistryLock.unlock();
  recentDetach(T);
  kernelEventsDetach(T);
  samplerDetach(T);
  // TLS destructors that run after this one find the thread gone.
  T.Status = StatusDead;
  T.Depth = 0;
  RegistryLock.lock();
  giveBackFrames(T);
  RegistryLock.unlock();
}

} // namespace


void noteThreadRoot(const void *Frame) {
  uintptr_t D = uintptr_t(pthread_self()) - uintptr_t(Frame);
  __atomic_store_n(&RootDistance, D, __ATOMIC_RELAXED);
}

void threadRootComing(bool Coming) {
  __atomic_store_n(&RootComing, Coming, __ATOMIC_RELAXED);
}

bool atThreadRoot(const ThreadState &T, const void *Addr) {
  if (isFirstThread(T.Tid))
    return false;
  // A thread the program starts at once may register before the watcher
  // has run: it waits for the measure, as long as a loaded machine keeps
  // the watcher from its first instructions (a second at most: it was
  // created, so it will run).
  uintptr_t Root;
  uint64_t Until = 0;
  while (!(Root = __atomic_load_n(&RootDistance, __ATOMIC_RELAXED)) &&
         __atomic_load_n(&RootComing, __ATOMIC_RELAXED)) {
    uint64_t Now = now();
    if (!Until)
      Until = Now + nsToTicks(1000000000);
    else if (Now > Until)
      return false;
    napNs(100000);
  }
  if (!Root)
    return false;
  // The hooks' frame address and the runtime's frame pointer differ by a
  // few words (the return address's slot, the entry's stack pointer).
  uintptr_t D = uintptr_t(pthread_self()) - uintptr_t(Addr);
  return D + 64 >= Root && D <= Root + kRootSlack;
}

void threadInit() {
  ExitKeyReady = pthread_key_create(&ExitKey, onThreadExit) == 0;
  RenamesSeen = threadRenamesSeen();
}

bool threadReady(ThreadState &T) {
  if (T.Status != StatusNew)
    return false;
  T.Status = StatusBusy;
  // A hook can run before our start-up code (an instrumented constructor of
  // a library loaded first); start up now.
  runtimeInit();
  // Under a seccomp filter: registering makes system calls (gettid, prctl).
  if (!flags.enabled || sandboxed()) {
    T.Status = StatusDead; // switched off: every later hook returns at once
    return false;
  }
  T.Frames = takeFrames();
  if (!T.Frames) {
    T.Status = StatusDead; // no memory: never timed
    return false;
  }
  T.Tid = threadId();
  T.Self = (unsigned long)pthread_self();
  recentAttach(T);
  kernelEventsAttach(T);
  RegistryLock.lock();
  T.Next = Head;
  T.Prev = nullptr;
  if (Head)
    Head->Prev = &T;
  Head = &T;
  ++Registered;
  // The name is read now, before the thread's first frame opens (a system
  // call in the spike path would land in its callers' time, 20-40 us on a
  // VM), and under the lock once the thread is in the list: a rename by
  // another thread (pthread_setname_np right after pthread_create) either
  // came before, and the kernel has it, or finds the thread and stores it
  // after us. Read before joining, a rename in between was lost.
  char Name[16] = {};
  storeName(T, ownThreadName(Name) ? Name : "?");
  RegistryLock.unlock();
  if (ExitKeyReady)
    pthread_setspecific(ExitKey, &T);
  T.Status = StatusActive;
  samplerThreadStarts(T);
  return true;
}

// The forking thread is Busy while the lock is held: a signal that arrives
// during fork (they are delivered as the system call returns, before the
// parent's handlers) must not run a first hook that waits for the lock.
void threadBeforeFork() {
  ThreadState &T = threadState;
  T.StatusBeforeFork = T.Status;
  T.Status = StatusBusy;
  RegistryLock.lock();
}

void threadAfterForkParent() {
  RegistryLock.unlock();
  threadState.Status = threadState.StatusBeforeFork;
}

void threadAfterForkChild() {
  ThreadState &T = threadState;
  T.Status = T.StatusBeforeFork;
  // The other threads are gone, their perf event descriptors are not.
  for (ThreadState *O = Head; O; O = O->Next)
    if (O != &T) {
      kernelEventsDetach(*O);
      giveBackFrames(*O);
    }
  Head = nullptr;
  Gone = {};
  Registered = 0;
  MainLeft = false;
  if (T.Status != StatusNew && T.Status != StatusDead) {
    T.Next = T.Prev = nullptr;
    Head = &T;
    Registered = 1;
    T.Tid = threadId();
    T.Calls = T.Overflows = T.Lost = 0;
    uint32_t Open = T.Depth < kMaxDepth ? T.Depth : kMaxDepth;
    for (uint32_t I = 0; I < Open; ++I)
      T.Frames[I].Threshold = kNever;
  }
  // The inherited events watch the parent's thread.
  if (T.Kernel) {
    kernelEventsDetach(T);
    kernelEventsAttach(T);
  }
  RegistryLock.reset();
}

bool registeredThreadsGone() {
  RegistryLock.lock();
  bool Gone = MainLeft && !Head;
  RegistryLock.unlock();
  return Gone;
}

void threadNameForSpike(ThreadState &T) {
  char Name[16] = {};
  if (!RenamesSeen && &T == &threadState && !sandboxed() && ownThreadName(Name))
    storeName(T, Name);
}

void threadKernelName(const ThreadState &T, char *Out) {
  auto *Src = reinterpret_cast<const uint64_t *>(T.KernelName);
  uint64_t W[2] = {__atomic_load_n(&Src[0], __ATOMIC_RELAXED),
                   __atomic_load_n(&Src[1], __ATOMIC_RELAXED)};
  memcpy(Out, W, sizeof(W));
  Out[15] = 0;
}

ThreadTotals threadTotals() {
  RegistryLock.lock();
  ThreadTotals R = Gone;
  R.Threads = Registered;
  for (ThreadState *T = Head; T; T = T->Next) {
    R.Calls += __atomic_load_n(&T->Calls, __ATOMIC_RELAXED);
    R.Overflows += __atomic_load_n(&T->Overflows, __ATOMIC_RELAXED);
    uint64_t Lost = __atomic_load_n(&T->Lost, __ATOMIC_RELAXED);
    R.Lost += Lost;
    R.LostThreads += Lost != 0;
  }
  RegistryLock.unlock();
  return R;
}

void forEachThread(void (*F)(ThreadState &T, void *Arg), void *Arg) {
  RecursionGuard Guard; // a signal handler's hooks must not register now
  // In a crash the lock may be held by the crashed code, for good: after a
  // while the list is read as it stands.
  bool Locked = true;
  if (crashing()) {
    unsigned Spins = 0;
    while (!(Locked = RegistryLock.tryLock()) && Spins < 1100)
      backOff(Spins);
  } else {
    RegistryLock.lock();
  }
  for (ThreadState *T = Head; T; T = T->Next)
    F(*T, Arg);
  if (Locked)
    RegistryLock.unlock();
}

void threadRenamed(unsigned long Self, const char *Name) {
  // Busy while the registry lock is held: a signal handler's hooks on this
  // thread must not try to register under it.
  RecursionGuard Guard;
  RegistryLock.lock();
  for (ThreadState *T = Head; T; T = T->Next)
    if (T->Self == Self)
      storeName(*T, Name);
  RegistryLock.unlock();
}

} // namespace __spiketrap
