//===- spiketrap_thread.cpp - Thread registry -----------------------------===//
#include "spiketrap_thread.h"
#include "spiketrap_flags.h"
#include "spiketrap_init.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace __spiketrap {

__thread ThreadState threadState __attribute__((tls_model("initial-exec")));
uint64_t globalThresholdTicks = kNever;

namespace {

// Guards the registry. Taken only on a thread's first hook call, at thread
// exit and by the report, each with the thread marked Busy, so a signal
// handler's hooks on the same thread never wait for it.
class SpinLock {
public:
  void lock() {
    while (__atomic_exchange_n(&Held, true, __ATOMIC_ACQUIRE))
      while (__atomic_load_n(&Held, __ATOMIC_RELAXED))
        __builtin_ia32_pause();
  }
  void unlock() { __atomic_store_n(&Held, false, __ATOMIC_RELEASE); }

private:
  bool Held = false;
};

SpinLock RegistryLock;
ThreadState *Head;
ThreadTotals Gone; // counters of threads that have exited
uint64_t Registered;
pthread_key_t ExitKey;
bool ExitKeyReady;

void onThreadExit(void *P) {
  ThreadState &T = *static_cast<ThreadState *>(P);
  T.Status = StatusBusy;
  RegistryLock.lock();
  if (T.Prev)
    T.Prev->Next = T.Next;
  else
    Head = T.Next;
  if (T.Next)
    T.Next->Prev = T.Prev;
  Gone.Calls += T.Calls;
  Gone.Overflows += T.Overflows;
  RegistryLock.unlock();
  // TLS destructors that run after this one find the thread gone.
  T.Status = StatusDead;
}

} // namespace

void threadInit() {
  ExitKeyReady = pthread_key_create(&ExitKey, onThreadExit) == 0;
}

bool threadReady(ThreadState &T) {
  if (T.Status != StatusNew)
    return false;
  T.Status = StatusBusy;
  // A hook can run before our start-up code (an instrumented constructor of
  // a library loaded first); start up now.
  runtimeInit();
  if (!flags.enabled) {
    T.Status = StatusDead; // switched off: every later hook returns at once
    return false;
  }
  T.Tid = uint32_t(syscall(SYS_gettid));
  RegistryLock.lock();
  T.Next = Head;
  T.Prev = nullptr;
  if (Head)
    Head->Prev = &T;
  Head = &T;
  ++Registered;
  RegistryLock.unlock();
  if (ExitKeyReady)
    pthread_setspecific(ExitKey, &T);
  T.Status = StatusActive;
  return true;
}

void threadBeforeFork() { RegistryLock.lock(); }
void threadAfterForkParent() { RegistryLock.unlock(); }

void threadAfterForkChild() {
  ThreadState &T = threadState;
  Head = nullptr;
  Gone = {};
  Registered = 0;
  if (T.Status != StatusNew && T.Status != StatusDead) {
    T.Next = T.Prev = nullptr;
    Head = &T;
    Registered = 1;
    T.Tid = uint32_t(syscall(SYS_gettid));
    T.Calls = T.Overflows = 0;
    uint32_t Open = T.Depth < kMaxDepth ? T.Depth : kMaxDepth;
    for (uint32_t I = 0; I < Open; ++I)
      T.Frames[I].Threshold = kNever;
  }
  RegistryLock.unlock();
}

ThreadTotals threadTotals() {
  RegistryLock.lock();
  ThreadTotals R = Gone;
  R.Threads = Registered;
  for (ThreadState *T = Head; T; T = T->Next) {
    R.Calls += __atomic_load_n(&T->Calls, __ATOMIC_RELAXED);
    R.Overflows += __atomic_load_n(&T->Overflows, __ATOMIC_RELAXED);
  }
  RegistryLock.unlock();
  return R;
}

} // namespace __spiketrap
