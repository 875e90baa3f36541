//===- spiketrap_signal.cpp - Wrapping the program's signal handlers ------===//
#include "spiketrap_signal.h"

#include <atomic>
#include <signal.h>

// glibc's own entry point, so our sigaction() can call the real one.
extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

namespace __spiketrap {

namespace {

// The program's actions for the signals whose handlers we wrap. Written by
// sigaction() (never from a handler), read by the trampoline.
struct sigaction UserActions[NSIG];

bool contextLive(const SignalContext &C, uintptr_t Addr) {
  if (C.AltHi) // on an alternate stack: live while activations are on it
    return Addr >= C.AltLo && Addr < C.AltHi;
  return Addr < C.Base; // same stack: the handler's frames are below ours
}

void trampoline(int Sig, siginfo_t *Info, void *Uctx) {
  ThreadState &T = threadState;
  volatile char Marker = 0;
  uint32_t N = T.NumSignals;
  // A busy runtime ignores hooks anyway; a dead thread has no stack to mark.
  bool Tracked = N < kMaxSignalNesting &&
                 (T.Status == StatusActive || T.Status == StatusNew);
  const struct sigaction A = UserActions[Sig];
  if (Tracked) {
    SignalContext &C = T.Signals[N];
    C.Floor = T.Depth;
    C.Signo = Sig;
    C.Base = uintptr_t(&Marker);
    C.AltLo = C.AltHi = 0;
    stack_t SS;
    // sigaltstack is async-signal-safe; only asked when it can matter.
    if ((A.sa_flags & SA_ONSTACK) && sigaltstack(nullptr, &SS) == 0 &&
        (SS.ss_flags & SS_ONSTACK)) {
      C.AltLo = uintptr_t(SS.ss_sp);
      C.AltHi = C.AltLo + SS.ss_size;
    }
    std::atomic_signal_fence(std::memory_order_seq_cst);
    T.NumSignals = N + 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
  }
  if (A.sa_flags & SA_SIGINFO)
    A.sa_sigaction(Sig, Info, Uctx);
  else if (A.sa_handler != SIG_IGN && A.sa_handler != SIG_DFL)
    A.sa_handler(Sig);
  // A handler left by siglongjmp never gets here; signalFloor() cleans up.
  if (Tracked && T.NumSignals > N)
    T.NumSignals = N;
}

bool isTrampoline(const struct sigaction &A) {
  return (A.sa_flags & SA_SIGINFO) && A.sa_sigaction == trampoline;
}

} // namespace

uint32_t signalFloor(ThreadState &T, uintptr_t Addr) {
  uint32_t N = T.NumSignals;
  while (N && !contextLive(T.Signals[N - 1], Addr))
    --N;
  T.NumSignals = N;
  return N ? T.Signals[N - 1].Floor : 0;
}

} // namespace __spiketrap

using namespace __spiketrap;

// Interposes libc's sigaction for the program: handlers are installed behind
// the trampoline; queries see the program's own handlers.
SPIKETRAP_EXPORT int sigaction(int Sig, const struct sigaction *Act,
                               struct sigaction *Old) {
  struct sigaction Prev;
  bool Wrap = Act && Sig > 0 && Sig < NSIG && Act->sa_handler != SIG_IGN &&
              Act->sa_handler != SIG_DFL;
  if (!Wrap) {
    int R = __sigaction(Sig, Act, &Prev);
    if (R == 0 && Old)
      *Old = isTrampoline(Prev) ? UserActions[Sig] : Prev;
    return R;
  }
  struct sigaction Ours = *Act, SavedUser = UserActions[Sig];
  Ours.sa_flags |= SA_SIGINFO;
  Ours.sa_sigaction = trampoline;
  UserActions[Sig] = *Act; // before the install: a signal may come at once
  int R = __sigaction(Sig, &Ours, &Prev);
  if (R != 0) {
    UserActions[Sig] = SavedUser;
    return R;
  }
  if (Old)
    *Old = isTrampoline(Prev) ? SavedUser : Prev;
  return R;
}

// glibc's signal() calls its internal sigaction, not ours: wrap it too, with
// its BSD semantics (restart, block the signal while it runs).
SPIKETRAP_EXPORT sighandler_t signal(int Sig, sighandler_t Handler) {
  struct sigaction A = {}, Old;
  A.sa_handler = Handler;
  A.sa_flags = SA_RESTART;
  sigemptyset(&A.sa_mask);
  if (Sig > 0 && Sig < NSIG)
    sigaddset(&A.sa_mask, Sig);
  if (sigaction(Sig, &A, &Old) != 0)
    return SIG_ERR;
  return Old.sa_handler;
}
