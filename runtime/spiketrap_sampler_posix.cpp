//===- spiketrap_sampler_posix.cpp - The tick as a signal -----------------===//
//
// The tick delivered by a signal (spiketrap_sampler.cpp does the tick):
//   - each thread's timer on its own CPU clock, periodic: the kernel looks
//     at it at the scheduler's tick, while the thread runs (every 4 ms of
//     CPU at HZ=250, whatever shorter interval is asked), and raises the
//     signal as the thread returns to user mode
//     (CONFIG_POSIX_CPU_TIMERS_TASK_WORK). So a tick lands only in user
//     code: a system call is never interrupted by it (no EINTR), a thread
//     that sleeps or waits for a CPU gets none, and there is no timer
//     interrupt of its own (the scheduler's tick comes anyway);
//   - the thread makes its timer when it registers; the watcher makes one
//     for a thread that had no buffer then, and starts the timer of a
//     thread that stopped it (a few ticks with no call open). No signal is
//     ever sent by hand (spiketrap_sampler_setup.cpp);
//   - the signal is never blocked by the program's sigprocmask or
//     pthread_sigmask (interposed: the program still reads it as it set
//     it), so it is never pending where a sigwait or a signalfd could take
//     it; one that is not ours (kill -RTMAX) takes the default action.
// The handler measures what a tick costs the thread (its CPU clock read at
// its start and end, and the signal's round trip calibrated at start-up),
// and unwinds the interrupted stack with the unwind tables
// (_Unwind_Backtrace, from the handler), a fault in them caught. The
// timer, the signal and the masks are the platform's (the Ticks section of
// spiketrap_platform.h). This file has unwind tables.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_arch.h"
#include "spiketrap_clock.h"
#include "spiketrap_platform.h"
#include "spiketrap_sampler.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <errno.h>
#include <setjmp.h>
#include <ucontext.h>
#include <unwind.h>

namespace __spiketrap {

using namespace sampler_impl;

namespace {

// Functions whose frames are not what their unwind tables say while they
// run (the unwinder installing a landing pad rewrites its own frame's saved
// registers; longjmp and context switches move the stack pointer): a walk
// that meets one stops there (it would follow a wrong frame to a wrong
// return address, and read code at it). Their starts, as the unwind tables
// give them.
uintptr_t Unsafe[10];
uint32_t NumUnsafe;

// While this thread's sample unwinds: where a fault in the unwinder goes
// back to (samplerFaultGuard).
__thread sigjmp_buf *UnwindGuard;

} // namespace

//===-- Unwinding ---------------------------------------------------------===//

namespace {

_Unwind_Reason_Code step(_Unwind_Context *C, void *P) {
  Walk &W = *static_cast<Walk *>(P);
  int Signal = 0;
  uintptr_t Ip = _Unwind_GetIPInfo(C, &Signal);
  uintptr_t Start = _Unwind_GetRegionStart(C);
  // Pc 0: from the walk's own caller out (a spike's exit, framesAbove).
  if (!W.Found && W.Pc && Ip != W.Pc)
    return ++W.Before > 16 ? _URC_END_OF_STACK : _URC_NO_REASON;
  // Its frame, or one it called (the unwinder's install of a landing pad
  // rewrites its caller's saved registers), is not to be stepped out of.
  for (uint32_t I = 0; I < NumUnsafe; ++I)
    if (Start && Start == Unsafe[I]) {
      W.Broken = true;
      return _URC_END_OF_STACK;
    }
  if (!W.Found) {
    W.Found = true;
  } else {
    // Each frame is further out than the last.
    uintptr_t Cfa = _Unwind_GetCFA(C);
    if (Cfa <= W.Cfa) {
      W.Broken = true;
      return _URC_END_OF_STACK;
    }
    W.Cfa = Cfa;
    if (walkFlush(W, Cfa)) {
      W.Fn = 0;
      return _URC_END_OF_STACK;
    }
  }
  W.Fn = Start;
  if (!W.Fn) // no unwind entry: the PC names it (the walk ends there)
    W.Fn = Ip;
  return _URC_NO_REASON;
}

_Unwind_Reason_Code countFrames(_Unwind_Context *, void *P) {
  ++*static_cast<int *>(P);
  return _URC_NO_REASON;
}

} // namespace

void sampler_impl::walkStack(Walk &W) {
  W.Pc = W.Ctx ? arch::contextPc(W.Ctx) : 0;
  sigjmp_buf Jmp, *Outer = UnwindGuard;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (sigsetjmp(Jmp, 0) == 0) {
    UnwindGuard = &Jmp;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    _Unwind_Backtrace(step, &W);
  } else {
    // Left the fault's handler by a jump: the fault is unblocked. What it
    // blocked besides (its sa_mask) stays blocked: in a tick, until its
    // handler returns (its return restores the program's mask); at a
    // spike's exit too (rare, and reading the mask first would cost a
    // system call per spike).
    tickUnblockFaults();
    W.Broken = true;
    W.Fn = 0;
    __atomic_fetch_add(&UnwindFaults, 1, __ATOMIC_RELAXED);
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  UnwindGuard = Outer;
}

// libgcc finds the unwind tables itself (dl_iterate_phdr).
void sampler_impl::walkPrepare() {}

void sampler_impl::primeUnwinder() {
  // The unwinder's one-time set-up (and its lazy bindings) now, not in a
  // handler; a spike's exit walks its stack with sample=0 too (framesAbove).
  int Frames = 0;
  _Unwind_Backtrace(countFrames, &Frames);
  const void *const Risky[] = {
      reinterpret_cast<const void *>(&_Unwind_RaiseException),
      reinterpret_cast<const void *>(&_Unwind_Resume),
      reinterpret_cast<const void *>(&_Unwind_Resume_or_Rethrow),
      reinterpret_cast<const void *>(&_Unwind_ForcedUnwind),
      reinterpret_cast<const void *>(&longjmp),
      reinterpret_cast<const void *>(&_longjmp),
      reinterpret_cast<const void *>(&siglongjmp),
      reinterpret_cast<const void *>(&setcontext),
      reinterpret_cast<const void *>(&swapcontext)};
  static_assert(sizeof(Risky) / sizeof(Risky[0]) <=
                sizeof(Unsafe) / sizeof(Unsafe[0]));
  for (const void *F : Risky)
    // Where the unwind tables start it (a PLT entry's: the PLT's). The
    // lookup is for a return address: one byte in.
    if (void *S = _Unwind_FindEnclosingFunction(
            const_cast<char *>(static_cast<const char *>(F)) + 1))
      Unsafe[NumUnsafe++] = uintptr_t(S);
  __atomic_store_n(&UnwindReady, true, __ATOMIC_RELEASE);
}

//===-- The signal --------------------------------------------------------===//

namespace {

// A signal of ours' number that is not ours (kill -RTMAX, raise): the
// program's, at the default action as far as it knows. Sampling stops (as
// when the program takes the signal), the action goes back to the default,
// and the signal is queued again as it came: it arrives as this handler
// returns, and ends the process, or, if the program blocked it on this
// thread, waits for the program's sigwait or signalfd.
void foreignSignal(int Sig, siginfo_t *Info, void *Uctx) {
  samplerSignalTaken(Sig);
  tickPassOn(Sig, Info, Uctx);
}

} // namespace

void sampler_impl::handler(int Sig, siginfo_t *Info, void *Uctx) {
  if (!tickFromOurTimer(Info)) {
    int Saved = errno;
    foreignSignal(Sig, Info, Uctx);
    errno = Saved;
    return;
  }
  ThreadState &T = threadState;
  SampleBuffer *B = T.Samples;
  if (!B)
    return; // a tick queued before the thread handed its buffer on
  int Saved = errno;
  uint64_t TickAt = now();
  uint64_t C0 = tickThreadCpuNs();
  __atomic_store_n(&B->Ticks, B->Ticks + 1, __ATOMIC_RELAXED);
  bool Room = roomOnAltStack(T, uintptr_t(__builtin_frame_address(0)), 0);
  // Against samplerSignalTaken: it clears SampleSig, then waits for
  // InHandler; we count InHandler, then read SampleSig. Once the signal is
  // given up, its timers are samplerSignalTaken's to delete: hands off.
  __atomic_fetch_add(&B->InHandler, 1, __ATOMIC_SEQ_CST);
  if (!Room) {
    // Not even a tick's bookkeeping: the next may have room.
    __atomic_fetch_add(&StackSkips, 1, __ATOMIC_RELAXED);
  } else if (Sig == __atomic_load_n(&SampleSig, __ATOMIC_SEQ_CST) &&
             __atomic_load_n(&B->HasTimer, __ATOMIC_ACQUIRE) == 2) {
    bool Sampled = tick(T, *B, Uctx, C0);
    // What this tick cost the thread, measured: the handler's run and the
    // kernel's part (calibrated).
    uint64_t C1 = tickThreadCpuNs();
    tickCost(*B, Sampled, TickAt, (C1 > C0 ? C1 - C0 : 0) + SignalNs);
  }
  __atomic_fetch_sub(&B->InHandler, 1, __ATOMIC_RELEASE);
  errno = Saved;
}


void samplerFaultGuard(int Sig) {
  if (Sig != SIGSEGV && Sig != SIGBUS)
    return;
  sigjmp_buf *Jmp = UnwindGuard;
  if (!Jmp)
    return;
  UnwindGuard = nullptr; // a fault on the way back is the program's
  siglongjmp(*Jmp, 1);
}

bool samplerHandlerIs(const struct sigaction &A) {
  return (A.sa_flags & SA_SIGINFO) && A.sa_sigaction == handler;
}

bool samplerHandlerIs(sighandler_t H) {
  return reinterpret_cast<void *>(H) == reinterpret_cast<void *>(handler);
}

} // namespace __spiketrap
