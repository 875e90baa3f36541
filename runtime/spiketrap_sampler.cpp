//===- spiketrap_sampler.cpp - Samples of a call that runs long -----------===//
//
// The tick, whoever delivers it: what a tick does (the budget, the timer's
// interval, whether a call is due a sample, the re-arm of a long call's
// switched-off callees), a sample written from a walk of the interrupted
// stack, and what a tick cost, taken out of the calls it lands in. Who
// delivers it and walks the stack is the platform's:
//   - spiketrap_sampler_posix.cpp: each thread's timer on its own CPU
//     clock signals it; the handler ticks on the thread, and unwinds it
//     with the unwind tables (_Unwind_Backtrace);
//   - spiketrap_sampler_win.cpp: the watcher's look stops the thread
//     (SuspendThread), ticks with its context, and walks its stack with
//     the PE unwind tables (RtlVirtualUnwind) before it lets it go on.
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
#include <string.h>

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

void sampler_impl::walkPut(Walk &W, uintptr_t Fn, const spiketrap_desc *D, uint64_t Start) {
  W.S->F[W.N % kSampleFrames] = {Fn, D, Start};
  ++W.N;
}

bool sampler_impl::walkFlush(Walk &W, uintptr_t Cfa) {
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
      walkPut(W, W.Fn, F.Desc, F.Start);
    Activation = true;
    --W.J;
  }
  if (!Activation && !Tramp) // a trampoline is its function's, not between
    walkPut(W, W.Fn, nullptr, 0);
  // Out past the first timed frame, or a stack that never ends.
  return W.J < W.Floor || W.N > 4 * kSampleFrames;
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
  Walk W = Walk::from(T, S, Uctx, Depth - 1, Floor);
  // A fault in the unwinder drops the sample (walkStack).
  walkStack(W);
  if (W.Fn) // the walk ended where the unwind tables did: its CFA is unknown
    walkPut(W, W.Fn, nullptr, 0);
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

} // namespace

//===-- The tick ----------------------------------------------------------===//

bool sampler_impl::tick(ThreadState &T, SampleBuffer &B, void *Uctx,
                        uint64_t CpuNs) {
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

void sampler_impl::tickCost(SampleBuffer &B, bool Sampled, uint64_t TickAt,
                            uint64_t Cost) {
  B.CreditNs -= int64_t(Cost);
  B.SpentNs += Cost;
  // Taken out of the calls it lands in (a near miss is not pushed over
  // its threshold by a sample).
  uint32_t Slot = B.CostNext % 32;
  B.CostAt[Slot] = 0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  uint64_t CostTicks = nsToTicks(Cost);
  B.CostTicks[Slot] = uint32_t(CostTicks < UINT32_MAX ? CostTicks : 0);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  B.CostAt[Slot] = TickAt;
  B.CostNext = Slot + 1;
  if (Sampled)
    B.SampledNs += Cost, ++B.SampledTicks;
  // The ticks without a sample set the timer's interval; the samples, how
  // much budget one needs.
  uint64_t &Avg = Sampled ? B.SampleCostNs : B.TickCostNs;
  Avg = Avg ? (Avg * 7 + Cost) / 8 : Cost;
  uint64_t Want = wantedPeriod(B);
  if (Want != B.PeriodNs) {
    B.PeriodNs = Want;
    if (__atomic_load_n(&B.Armed, __ATOMIC_ACQUIRE))
      setTimer(B, Want);
  }
}

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

void samplerForgetSamples() { __atomic_fetch_add(&Epoch, 1, __ATOMIC_RELAXED); }

} // namespace __spiketrap
