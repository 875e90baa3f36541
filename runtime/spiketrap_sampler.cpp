//===- spiketrap_sampler.cpp - Samples of a call that runs long -----------===//
//
// The tick: the sampling signal's handler, what a tick does (the budget,
// the timer's interval, whether a call is due a sample, the re-arm of a
// long call's switched-off callees) and the unwinding into the thread's
// sample buffer. Who sends what:
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
//   - a tick that finds a call open past half its threshold samples it, at
//     most every 1/16 of the call's age, within the budget: the ticks and
//     samples may cost the thread sample_share percent of its CPU time,
//     measured (its CPU clock read at the handler's start and end, and the
//     signal's round trip calibrated at start-up);
//   - the signal is never blocked by the program's sigprocmask or
//     pthread_sigmask (interposed: the program still reads it as it set
//     it), so it is never pending where a sigwait or a signalfd could take
//     it; one that is not ours (kill -RTMAX) takes the default action.
// The timer, the signal and the masks are the platform's (the Ticks section
// of spiketrap_platform.h). This file has unwind tables: _Unwind_Backtrace
// starts in the handler.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_sampler.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_clock.h"
#include "spiketrap_platform.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_symbols.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <errno.h>
#include <setjmp.h>
#include <string.h>
#include <ucontext.h>
#include <unwind.h>

namespace __spiketrap {

namespace sampler_impl {
int SampleSig;
uint64_t ShareMilli;
uint64_t SignalNs;
uint32_t Epoch;
uint64_t SamplesTaken;
uint64_t UnwindFaults;
uint64_t StackSkips;
uintptr_t FrameNeed;
bool UnwindReady;
} // namespace sampler_impl

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

// The timer's interval: what the kernel rounds up to its scheduler tick (4
// ms at HZ=250, 1 ms at HZ=1000), an eighth of the global threshold when
// that is longer (at most 50 ms), longer still when the ticks alone would
// cost the thread more than half its budget. The ticks in a row with no
// call open after which it stops (the watcher starts it again).
constexpr uint64_t kTickNs = 1000000, kMaxTickNs = 50000000;
constexpr uint32_t kIdleTicks = 4;
constexpr uint64_t kAgeShare = 16; // a call is sampled 16 times per age
// The handler runs on the thread's own stack (it is installed without
// SA_ONSTACK: a program's 8 KiB sigaltstack cannot hold a signal frame of
// 3.4 KiB with AVX-512 and an unwinding). Only inside a program's handler
// that runs on its alternate stack does it land there: it ticks only with
// this much room below it (measured: ~5.7 KiB a sample with its unwinding),
// and such a handler holds our signal back while it runs unless the stack
// has room for a signal frame besides (samplerHandlerOnAltStack).
constexpr uintptr_t kStackNeed = 16 << 10;
// While this thread's sample unwinds: where a fault in the unwinder goes
// back to (samplerFaultGuard).
__thread sigjmp_buf *UnwindGuard;

} // namespace

//===-- The timer's interval ----------------------------------------------===//

void sampler_impl::setTimer(SampleBuffer &B, uint64_t Ns) {
  tickTimerSet(B.TimerId, Ns);
}

// See kTickNs. The ticks alone (without samples) take at most half of the
// budget.
uint64_t sampler_impl::wantedPeriod(const SampleBuffer &B) {
  uint64_t P = ticksToNs(globalThresholdTicks) / 8;
  P = P < kTickNs ? kTickNs : P > kMaxTickNs ? kMaxTickNs : P;
  uint64_t Least = ShareMilli ? B.TickCostNs * 2000 / ShareMilli : 0;
  while (P < Least && P < kMaxTickNs)
    P *= 2;
  return P;
}

uint32_t sampler_impl::sampleFloor(const ThreadState &T) {
  uint32_t N = T.NumSignals;
  return N && N <= kMaxSignalNesting ? T.Signals[N - 1].Floor : 0;
}

//===-- Unwinding ---------------------------------------------------------===//

namespace {

void put(Walk &W, uintptr_t Fn, const spiketrap_desc *D, uint64_t Start) {
  W.S->F[W.N % kSampleFrames] = {Fn, D, Start};
  ++W.N;
}

// Writes the waiting frame, whose CFA is Cfa: the activation of timed
// level J if it holds that level's return-address slot (or a scope's
// local); frames inside it lie below. Returns whether the walk is done.
bool flush(Walk &W, uintptr_t Cfa) {
  bool Activation = false;
  // A trampoline's activation is the stack pointer its caller left (AArch64:
  // the trampoline's own CFA, not below it as the x86-64 return slot is).
  bool Tramp = isSiteTrampoline(W.Fn);
  while (W.J >= W.Floor &&
         (Cfa > uintptr_t(W.T->Frames[W.J].Addr) ||
          (Tramp && Cfa == uintptr_t(W.T->Frames[W.J].Addr)))) {
    const Frame &F = W.T->Frames[W.J];
    // A patched site's trampoline calls the function's own code: two
    // frames, one activation. Kept as one (the function's, with the
    // activation), or a timed recursion would fill the sample twice as fast.
    uintptr_t Entry = uintptr_t(__spiketrap_desc_entry(F.Desc));
    SampleFrame *Inner = W.N ? &W.S->F[(W.N - 1) % kSampleFrames] : nullptr;
    if (!Activation && Entry && W.Fn != Entry && Inner && !Inner->Desc &&
        Inner->Fn == Entry)
      *Inner = {Entry, F.Desc, F.Start};
    else
      put(W, W.Fn, F.Desc, F.Start);
    Activation = true;
    --W.J;
  }
  if (!Activation && !Tramp) // a trampoline is its function's, not between
    put(W, W.Fn, nullptr, 0);
  // Out past the first timed frame, or a stack that never ends.
  return W.J < W.Floor || W.N > 4 * kSampleFrames;
}

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
    if (flush(W, Cfa)) {
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

//===-- A sample ----------------------------------------------------------===//

namespace {

// The latest-started open call of T past half its threshold at Now (null:
// none). The innermost sets the pace: a call that runs for the whole
// program (a main loop) would be sampled ever more slowly, and a spike
// inside it with it. Levels below Floor are the interrupted code's, when a
// handler runs.
const Frame *hotFrame(const ThreadState &T, uint32_t Floor, uint32_t Depth,
                      uint64_t Now) {
  for (uint32_t J = Depth; J-- > Floor;) {
    const Frame &F = T.Frames[J];
    uint64_t Thr = resolvedThreshold(F.Threshold);
    if (uintptr_t(F.Addr) == kUnderConstruction || Thr == kNever ||
        Now < F.Start)
      continue;
    if ((Now - F.Start) * 2 >= Thr)
      return &F;
  }
  return nullptr;
}

// Takes a sample of the code the signal interrupted (on this thread), whose
// innermost call open past half its threshold is Hot, and says when to take
// the next (ticks from T0). The sample stands for Stands ticks of the
// thread's time (the wall time the last tick's interval of CPU took).
uint64_t takeSample(ThreadState &T, SampleBuffer &B, void *Uctx,
                    const Frame *Hot, uint32_t Floor, uint64_t T0,
                    uint64_t Stands) {
  uint32_t Depth = T.Depth;
  // Sampling starts anew after a wait or a tick with no such call open; the
  // first few samples since stay (a call that got hot inside the one
  // sampled goes on with its samples).
  if (!B.Live) {
    ++B.Run;
    B.Session = 0;
    B.Live = 1;
  }
  __atomic_store_n(&B.HotStart, Hot->Start, __ATOMIC_RELAXED);
  // At every tick while the call is young; a long call more sparsely.
  uint64_t Period = (T0 - Hot->Start) / kAgeShare;
  if (B.Reading || uintptr_t(T.Frames[Depth - 1].Addr) == kUnderConstruction) {
    ++B.Dropped; // the exit path is reading the samples, or a hook is midway
    return Period;
  }
  constexpr uint32_t kTail = kSampleSlots - kSampleHead;
  Sample &S = B.Slots[B.Session < kSampleHead
                          ? B.Session
                          : kSampleHead + (B.Session - kSampleHead) % kTail];
  Walk W = Walk::from(T, S, arch::contextPc(Uctx), Depth - 1, Floor);
  // A fault in the unwinder drops the sample (walkStack).
  walkStack(W);
  if (W.Fn) // the walk ended where the unwind tables did: its CFA is unknown
    put(W, W.Fn, nullptr, 0);
  if (!W.Found || !W.N || W.Broken) {
    S.Frames = 0;
    ++B.Dropped;
    return Period;
  }
  // Outermost first: the ring from its newest entry back.
  uint32_t Kept = W.N < kSampleFrames ? W.N : kSampleFrames;
  SampleFrame Tmp[kSampleFrames];
  for (uint32_t I = 0; I < Kept; ++I)
    Tmp[I] = S.F[(W.N - 1 - I) % kSampleFrames];
  memcpy(S.F, Tmp, Kept * sizeof(SampleFrame));
  S.Frames = Kept;
  S.Cut = W.N - Kept;
  S.Epoch = __atomic_load_n(&Epoch, __ATOMIC_RELAXED);
  S.Run = B.Run;
  uint64_t Us = ticksToNs(Period > Stands ? Period : Stands) / 1000;
  S.PeriodUs = uint32_t(Us < UINT32_MAX ? Us : UINT32_MAX);
  S.Blocked = 0;
  S.Time = T0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  ++B.Taken;
  ++B.Session;
  __atomic_fetch_add(&SamplesTaken, 1, __ATOMIC_RELAXED);
  return Period;
}

//===-- The re-arm --------------------------------------------------------===//

// Times again the switched-off callees of D, T's innermost call open from
// Start, past its threshold in its own time (or in code it calls untimed):
// its switched-off callees may hold that time. A spike in one that recurs
// while the call runs (a frame loop inside one long call) is then caught at
// its own level (late probes did this in the flag design). Noted for its
// spike (samplerRearmed).
void rearm(SampleBuffer &B, const spiketrap_desc *Desc, uint64_t Start,
           uint64_t Now) {
  auto *D = const_cast<spiketrap_desc *>(Desc);
  __atomic_store_n(&B.RearmStart, 0, __ATOMIC_RELAXED);
  uint32_t N = 0;
  for (uint32_t I = 0;
       I < __spiketrap_desc_num_callees(D) && N < kMaxCandidates; ++I)
    if (const spiketrap_desc *C = calleeAt(D, I);
        __atomic_load_n(&__spiketrap_desc_state(C)->off, __ATOMIC_RELAXED))
      B.Rearmed[N++] = C;
  B.NumRearmed = N;
  B.RearmDesc = D;
  B.RearmAt = Now;
  __atomic_store_n(&B.RearmStart, Start, __ATOMIC_RELEASE);
  if (N)
    adaptRearmCallees(D, Now);
}

// Whether the innermost call of T, Hot, open past its threshold in its own
// time, is to have its switched-off callees timed again now: not done yet
// for it (or nothing was switched off yet when it first ran long, a loop
// that never returns, its callees still learning: asked again after each
// threshold of time), and not late because T waited for a CPU (a loaded
// machine: that time is not its callees').
bool rearmDue(const ThreadState &T, const SampleBuffer &B, const Frame &Hot,
              uint64_t Now) {
  uint64_t Thr = resolvedThreshold(Hot.Threshold);
  const spiketrap_desc *D = Hot.Desc;
  if (Thr == kNever || Now - Hot.Start < Thr ||
      (Now - Hot.Start - Hot.ChildTicks) * 2 < Thr || !D ||
      !__spiketrap_desc_num_callees(D))
    return false;
  if (B.RearmStart == Hot.Start && B.RearmDesc == D &&
      (B.NumRearmed || Now - B.RearmAt < Thr))
    return false;
  return !runDelayExplains(T, Hot.Start, Now, Thr);
}

//===-- The tick ----------------------------------------------------------===//

// A tick of this thread, at CpuNs of its CPU time: samples its innermost
// call open past half its threshold when a sample is due and the budget
// has room for it; says whether it sampled. No call open for a few ticks in
// a row: the timer stops (the watcher's look starts it again).
bool tick(ThreadState &T, SampleBuffer &B, void *Uctx, uint64_t CpuNs) {
  uint64_t T0 = now();
  uint32_t Depth = T.Depth;
  // The budget earned since the last tick: a share of the CPU time the
  // thread ran (the ticks' own cost, taken out at their end, included).
  uint64_t Ran =
      B.LastTickCpuNs && CpuNs > B.LastTickCpuNs ? CpuNs - B.LastTickCpuNs : 0;
  uint64_t Wall = B.LastTick && T0 > B.LastTick ? T0 - B.LastTick : 0;
  B.SeenCpuNs += Ran;
  if (Ran)
    B.TickCpuNs = B.TickCpuNs ? (B.TickCpuNs * 7 + Ran) / 8 : Ran;
  B.CreditNs += int64_t(Ran * ShareMilli / 100000);
  if (B.CreditNs > int64_t(kCreditCapNs * ShareMilli / 1000))
    B.CreditNs = int64_t(kCreditCapNs * ShareMilli / 1000);
  B.LastTick = T0;
  B.LastTickCpuNs = CpuNs;
  if (T.Status != StatusActive || !Depth || Depth > kMaxDepth) {
    B.Live = 0;
    if (++B.IdleTicks >= kIdleTicks)
      withTimer(B, [](SampleBuffer &B) {
        setTimer(B, 0);
        __atomic_store_n(&B.Armed, 0, __ATOMIC_RELEASE);
      });
    return false;
  }
  B.IdleTicks = 0;
  uint32_t Floor = sampleFloor(T);
  const Frame *Hot = Floor < Depth ? hotFrame(T, Floor, Depth, T0) : nullptr;
  // No call past half its threshold; or in an interposed wait's wrapper
  // (the tick came as its system call returned): that time is the wait's,
  // which the spike names, and no run delay reading may fall inside it.
  if (!Hot || __atomic_load_n(&T.InWait, __ATOMIC_RELAXED)) {
    B.Live = 0;
    return false;
  }
  // Since the last tick: the time the thread was off the CPU, and whether
  // it blocked (a voluntary switch): then the samples before are of
  // another run (they do not stand for the time in between).
  uint64_t Switches = ownBlockedCount() - T.ProcReadSleeps; // less ours
  bool Blocked = Switches != B.LastTickBlocked;
  B.LastTickBlocked = Switches;
  runDelayNoteCpu(T, T0, CpuNs, B.LastTickBlocked); // for a long wait
  uint64_t RanTicks = nsToTicks(Ran);
  uint64_t Off = Wall > RanTicks ? Wall - RanTicks : 0;
  if (Blocked || !Wall)
    B.Live = 0;
  // Hot at the last tick too (its run delay was read then, so the share
  // of time it waited for a CPU since is known), or it ran for most of the
  // time since the last tick: its time is its code's (for the re-arm).
  bool WasHot = (B.Live && Hot->Start == B.HotStart) ||
                (Wall && !Blocked && Off * 2 <= Wall);
  bool Sampled = false;
  if (!B.Live || Hot->Start != B.HotStart || T0 >= B.NextSample) {
    if (B.CreditNs >= int64_t(B.SampleCostNs)) {
      // At least the CPU time between ticks (the kernel's tick, 4 ms at
      // HZ=250, whatever interval was asked): a tick that came soon after
      // the last one stands for as much time as any.
      uint64_t Stands = nsToTicks(B.TickCpuNs);
      if (Wall && !Blocked && Wall > Stands)
        Stands = Wall;
      B.NextSample = T0 + takeSample(T, B, Uctx, Hot, Floor, T0, Stands);
      Sampled = true;
    } else {
      ++B.OverBudget; // the next tick tries again
    }
  }
  // Its thread's wait for a CPU from now on (spiketrap_rundelay.h): read
  // once per call, as of when the call passed half its threshold: what the
  // thread waited for a CPU since then is the call's, and the kernel has
  // added it to the run delay already. A tick never comes while the thread
  // is off the CPU: what it waited since then is at most its time off the
  // CPU since the last tick (when it did not block meanwhile).
  uint64_t Thr = resolvedThreshold(Hot->Threshold);
  uint64_t Ref = Hot->Start + Thr / 2;
  uint64_t Waited = T0 > Ref ? T0 - Ref : 0;
  runDelayWatchSelf(T, Hot->Start, T0,
                    Blocked        ? 0
                    : Waited < Off ? Waited
                                   : Off);
  if (WasHot && Hot == &T.Frames[Depth - 1] && rearmDue(T, B, *Hot, T0))
    rearm(B, Hot->Desc, Hot->Start, T0);
  return Sampled;
}

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

bool sampler_impl::roomOnAltStack(const ThreadState &T, uintptr_t Sp,
                                  uintptr_t Extra) {
  uint32_t N = T.NumSignals;
  if (!N || N > kMaxSignalNesting)
    return true;
  const SignalContext &C = T.Signals[N - 1];
  if (!C.AltLo || Sp < C.AltLo || Sp >= C.AltHi)
    return true;
  return Sp - C.AltLo >= kStackNeed + Extra;
}

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
    // kernel's part (calibrated). The ticks without a sample set the
    // timer's interval; the samples, how much budget one needs.
    uint64_t C1 = tickThreadCpuNs();
    uint64_t Cost = (C1 > C0 ? C1 - C0 : 0) + SignalNs;
    B->CreditNs -= int64_t(Cost);
    B->SpentNs += Cost;
    // Taken out of the calls it lands in (a near miss is not pushed over
    // its threshold by a sample).
    uint32_t Slot = B->CostNext % 32;
    B->CostAt[Slot] = 0;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    uint64_t CostTicks = nsToTicks(Cost);
    B->CostTicks[Slot] = uint32_t(CostTicks < UINT32_MAX ? CostTicks : 0);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    B->CostAt[Slot] = TickAt;
    B->CostNext = Slot + 1;
    if (Sampled)
      B->SampledNs += Cost, ++B->SampledTicks;
    uint64_t &Avg = Sampled ? B->SampleCostNs : B->TickCostNs;
    Avg = Avg ? (Avg * 7 + Cost) / 8 : Cost;
    uint64_t Want = wantedPeriod(*B);
    if (Want != B->PeriodNs) {
      B->PeriodNs = Want;
      if (__atomic_load_n(&B->Armed, __ATOMIC_ACQUIRE))
        setTimer(*B, Want);
    }
  }
  __atomic_fetch_sub(&B->InHandler, 1, __ATOMIC_RELEASE);
  errno = Saved;
}

//===-- What the rest of the runtime asks of the tick ---------------------===//

void samplerHandlerOnAltStack(const ThreadState &T, uintptr_t Sp) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_RELAXED);
  if (!Sig || roomOnAltStack(T, Sp, FrameNeed))
    return;
  // Held back until the handler returns (its sigreturn restores the mask).
  tickBlock(Sig);
}

uint64_t samplerTicksIn(const ThreadState &T, uint64_t Start, uint64_t End) {
  const SampleBuffer *B = T.Samples;
  if (!B)
    return 0;
  uint64_t Sum = 0;
  for (uint32_t I = 0; I < 32; ++I) {
    uint64_t At = B->CostAt[I];
    std::atomic_signal_fence(std::memory_order_seq_cst);
    uint64_t Cost = B->CostTicks[I];
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (At && At == B->CostAt[I] && At >= Start && At < End)
      Sum += Cost;
  }
  return Sum;
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

void samplerForgetSamples() { __atomic_fetch_add(&Epoch, 1, __ATOMIC_RELAXED); }

bool samplerHandlerIs(const struct sigaction &A) {
  return (A.sa_flags & SA_SIGINFO) && A.sa_sigaction == handler;
}

bool samplerHandlerIs(sighandler_t H) {
  return reinterpret_cast<void *>(H) == reinterpret_cast<void *>(handler);
}

} // namespace __spiketrap
