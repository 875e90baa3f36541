//===- spiketrap_fibers.cpp - A stack of open calls per context -----------===//
//
// Fibers (ucontext: makecontext, swapcontext, setcontext) run on stacks of
// their own, where comparing frame addresses cannot tell a fiber's open
// calls from dead ones. So each context keeps its own stack of open calls:
// switching away from one saves the thread's open frames under its
// ucontext_t, switching to one puts its saved frames back (none for a
// context that has not run yet). A fiber's frames follow it to whichever
// thread resumes it.
//
// The pass sends the program's calls of these functions here
// (plugin/Contexts.cpp: __spiketrap_swapcontext & co.), so nothing is
// interposed by name and static programs get the same. A context that
// returns from its function resumes its uc_link: makecontext's function is
// wrapped so that uc_link's frames are back first. Not followed: contexts
// switched by code built without the plugin, and makecontext with more
// than kMaxArgs arguments (their frames are then told apart by address, as
// before).
//
// A context's calls run only while it runs: switched out, its frames'
// clocks stop (put back, they start later by the time it was switched
// out), and so do the waits they made, which go with it (the thread's ring
// of waits is saved and put back with its frames). So neither a fiber's
// suspension nor the waits of the thread meanwhile are its calls' time;
// nor is a fiber's run the time of the call that switched to it.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_alloc.h"
#include "spiketrap_clock.h"
#include "spiketrap_defs.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_thread.h"

#include <stdarg.h>
#include <string.h>
#include <ucontext.h>

using namespace __spiketrap;

namespace {

// makecontext's arguments the wrapper passes on (more are not supported).
constexpr uint32_t kMaxArgs = 8, kMaxPassed = 16;
constexpr uint32_t kMaxContexts = 1024;

struct Saved {
  const void *Ctx; // the ucontext_t; null: a free entry
  uint32_t Depth;  // T.Depth when it was switched away from
  uint32_t Cap;    // frames room
  Frame *Frames;
  uintptr_t OverflowAddr;
  uint64_t SwitchedAt; // ticks when it was switched away from
  WaitRing *Waits;     // its waits then (null: out of memory, none)
  // makecontext's function and the context it resumes when it returns.
  void (*Func)(long, long, long, long, long, long, long, long);
  const ucontext_t *Link;
};

SpinLock Lock;
Saved Table[kMaxContexts];

// The entry of Ctx, made if Make (null: none, or the table is full). Lock
// held.
Saved *find(const void *Ctx, bool Make) {
  Saved *Free = nullptr;
  for (Saved &S : Table) {
    if (S.Ctx == Ctx)
      return &S;
    if (!S.Ctx && !Free)
      Free = &S;
  }
  if (!Make || !Free)
    return nullptr;
  Free->Ctx = Ctx;
  Free->Depth = 0;
  Free->SwitchedAt = 0;
  Free->Func = nullptr;
  Free->Link = nullptr;
  return Free;
}

// T's open frames, saved under Ctx.
void save(ThreadState &T, const void *Ctx) {
  RecursionGuard Guard; // the allocator may be instrumented
  Lock.lock();
  if (Saved *S = find(Ctx, true)) {
    uint32_t N = T.Depth < kMaxDepth ? T.Depth : kMaxDepth;
    if (N > S->Cap) {
      void *P = reportRealloc(S->Frames, N * sizeof(Frame));
      if (P) {
        S->Frames = static_cast<Frame *>(P);
        S->Cap = N;
      }
    }
    if (!S->Waits)
      S->Waits =
          static_cast<WaitRing *>(reportRealloc(nullptr, sizeof(WaitRing)));
    if (N <= S->Cap) {
      memcpy(S->Frames, T.Frames, N * sizeof(Frame));
      S->Depth = T.Depth;
      S->OverflowAddr = T.OverflowAddr;
      S->SwitchedAt = now();
      if (S->Waits)
        memcpy(S->Waits, &T.Waits, sizeof(WaitRing));
    } else {
      S->Depth = 0; // out of memory: it starts afresh when resumed
    }
  }
  Lock.unlock();
}

// Ctx's saved frames put back on T, or none for a context never switched
// away from.
void restore(ThreadState &T, const void *Ctx) {
  Lock.lock();
  Saved *S = find(Ctx, false);
  uint32_t Depth = S ? S->Depth : 0;
  uint32_t N = Depth < kMaxDepth ? Depth : kMaxDepth;
  // Its frames and their waits start later by the time it was switched
  // out; a context that has not run yet has waited for nothing.
  uint64_t Now = now();
  uint64_t Off = N && Now > S->SwitchedAt ? Now - S->SwitchedAt : 0;
  for (uint32_t I = 0; I < N; ++I)
    S->Frames[I].Start += Off;
  if (S)
    S->SwitchedAt = Now; // shifted once, however often it is resumed
  // The depth first down (no frame of ours is then above a handler's), the
  // frames, then the depth up.
  T.Depth = 0;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (N)
    memcpy(T.Frames, S->Frames, N * sizeof(Frame));
  if (S)
    T.OverflowAddr = S->OverflowAddr;
  // The thread is busy (switchTo): no wait is noted meanwhile.
  WaitRing &W = T.Waits;
  if (N && S->Waits) {
    memcpy(&W, S->Waits, sizeof(WaitRing));
    for (WaitEntry &E : W.Entries)
      if (E.End)
        E.Start += Off, E.End += Off;
    if (W.Evicted)
      W.Evicted += Off;
  } else {
    W.Next = W.Evicted = 0;
  }
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  T.Depth = Depth;
  Lock.unlock();
}

// Whether T's frames are ours to move: an active thread, not in a signal
// handler (whose frames lie on the interrupted context's stack).
bool movable(const ThreadState &T) {
  return T.Status == StatusActive && !T.NumSignals;
}

// Whether Ctx is ours: saved by a switch away from it (it resumes inside
// __spiketrap_swapcontext) or made by __spiketrap_makecontext and not run
// yet (it starts in fiberStart). Both make the thread active again; a
// context of getcontext's resumes in the program's code.
bool ours(const void *Ctx) {
  Lock.lock();
  bool Yes = find(Ctx, false);
  Lock.unlock();
  return Yes;
}

// Between putting another context's frames back and running on its stack,
// the thread is busy: a signal handler's hooks there would take them for
// its own stack's.
void switchTo(ThreadState &T, const void *Ctx) {
  T.Status = StatusBusy;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  restore(T, Ctx);
}

// After a switch, on the new context's stack.
void resumed(ThreadState &T) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  T.Status = StatusActive;
}

// What every context made by __spiketrap_makecontext starts in: its
// function, then uc_link's frames back before glibc resumes uc_link. The
// function is called as makecontext does, with up to 8 integer arguments
// whatever its declared type (-fsanitize=function would object).
__attribute__((no_sanitize("function"))) void fiberStart(long Ctx, long A0, long A1, long A2, long A3, long A4, long A5,
                long A6, long A7) {
  ThreadState &T = threadState;
  if (T.Status == StatusBusy) // switched to by __spiketrap_swapcontext
    resumed(T);
  Lock.lock();
  Saved *S = find(reinterpret_cast<const void *>(Ctx), false);
  auto Func = S ? S->Func : nullptr;
  const ucontext_t *Link = S ? S->Link : nullptr;
  if (S) // its function runs: its frames are the thread's from now on
    S->Func = nullptr;
  Lock.unlock();
  if (Func)
    Func(A0, A1, A2, A3, A4, A5, A6, A7);
  if (Link && movable(T) && ours(Link))
    switchTo(T, Link);
}

} // namespace

SPIKETRAP_EXPORT int __spiketrap_swapcontext(ucontext_t *Out,
                                             const ucontext_t *In) {
  ThreadState &T = threadState;
  // To a context not ours (getcontext's, on this stack like a longjmp
  // target) the frames stay: they are told apart by address.
  bool Move = movable(T) && ours(In);
  if (movable(T))
    save(T, Out);
  if (Move)
    switchTo(T, In);
  int R = swapcontext(Out, In);
  if (T.Status == StatusBusy) // back on Out's stack, switched to by ours
    resumed(T);
  return R;
}

SPIKETRAP_EXPORT int __spiketrap_setcontext(const ucontext_t *In) {
  ThreadState &T = threadState;
  // A context saved by a switch: its frames (it resumes inside
  // __spiketrap_swapcontext). Any other (getcontext's) is like a longjmp
  // target on this stack: frames are told apart by address.
  if (movable(T) && ours(In))
    switchTo(T, In);
  return setcontext(In);
}

SPIKETRAP_EXPORT void __spiketrap_makecontext(ucontext_t *Ctx, void (*Func)(),
                                              int Argc, ...) {
  long A[kMaxPassed] = {};
  va_list Ap;
  va_start(Ap, Argc);
  // makecontext's arguments travel as whole registers on x86-64 and
  // AArch64 (glibc reads them so): read and pass them the same way.
  for (int I = 0; I < Argc && I < int(kMaxPassed); ++I)
    A[I] = va_arg(Ap, long);
  va_end(Ap);
  Saved *S = nullptr;
  if (Argc >= 0 && Argc <= int(kMaxArgs)) {
    RecursionGuard Guard;
    Lock.lock();
    if ((S = find(Ctx, true))) {
      S->Depth = 0; // a new context: nothing open yet
      S->Func = reinterpret_cast<decltype(S->Func)>(Func);
      S->Link = Ctx->uc_link;
    }
    Lock.unlock();
  }
  if (!S)
    return makecontext(Ctx, Func, Argc, A[0], A[1], A[2], A[3], A[4], A[5],
                       A[6], A[7], A[8], A[9], A[10], A[11], A[12], A[13],
                       A[14], A[15]);
  makecontext(Ctx, reinterpret_cast<void (*)()>(fiberStart), kMaxArgs + 1,
              reinterpret_cast<long>(Ctx), A[0], A[1], A[2], A[3], A[4], A[5],
              A[6], A[7]);
}
