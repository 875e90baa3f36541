//===- spiketrap_sampler.cpp - Samples of a call that runs long -----------===//
//
// The signal (a real-time one the program leaves at its default action,
// from SIGRTMAX down), its handler, the per-thread sample buffers and
// timers, and the culprit a spike's samples agree on. Who sends what:
//   - each thread's timer on its own CPU clock (SIGEV_THREAD_ID to it),
//     periodic: the kernel looks at it at the scheduler's tick, while the
//     thread runs (every 4 ms of CPU at HZ=250, whatever shorter interval
//     is asked), and raises the signal as the thread returns to user mode
//     (CONFIG_POSIX_CPU_TIMERS_TASK_WORK). So a tick lands only in user
//     code: a system call is never interrupted by it (no EINTR), a thread
//     that sleeps or waits for a CPU gets none, and there is no timer
//     interrupt of its own (the scheduler's tick comes anyway);
//   - the thread makes its timer when it registers; the watcher makes one
//     for a thread that had no buffer then, and starts the timer of a
//     thread that stopped it (a few ticks with no call open). No signal is
//     ever sent by hand;
//   - a tick that finds a call open past half its threshold samples it, at
//     most every 1/16 of the call's age, within the budget: the ticks and
//     samples may cost the thread sample_share percent of its CPU time,
//     measured (its CPU clock read at the handler's start and end, and the
//     signal's round trip calibrated at start-up);
//   - the signal is never blocked by the program's sigprocmask or
//     pthread_sigmask (interposed below: the program still reads it as it
//     set it), so it is never pending where a sigwait or a signalfd could
//     take it; one that is not ours (kill -RTMAX) takes the default action.
// This file has unwind tables: _Unwind_Backtrace starts in the handler.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_sampler.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_symbols.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <linux/futex.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

namespace __spiketrap {

namespace {

// The sampling signal; 0: none (sampling off, or given up to the program).
int SampleSig;
// Our timers carry its address (SI_TIMER): a signal of that number without
// it is the program's (kill -RTMAX), and takes the default action.
char Cookie;
uint32_t Pid;

// The vDSO's code (clock_gettime, gettimeofday, time, getcpu): calls that
// take tens of nanoseconds each.
uintptr_t VdsoLo, VdsoHi;

// Functions whose frames are not what their unwind tables say while they
// run (the unwinder installing a landing pad rewrites its own frame's saved
// registers; longjmp and context switches move the stack pointer): a walk
// that meets one stops there (it would follow a wrong frame to a wrong
// return address, and read code at it). Their starts, as the unwind tables
// give them.
uintptr_t Unsafe[10];
uint32_t NumUnsafe;
// The unwinder is set up and takes no lock (glibc 2.35 on): a spike's exit
// may walk its own stack (framesAbove).
bool UnwindReady;

// The timer's interval: what the kernel rounds up to its scheduler tick (4
// ms at HZ=250, 1 ms at HZ=1000), an eighth of the global threshold when
// that is longer (at most 50 ms), longer still when the ticks alone would
// cost the thread more than half its budget. The ticks in a row with no
// call open after which it stops (the watcher starts it again).
constexpr uint64_t kTickNs = 1000000, kMaxTickNs = 50000000;
constexpr uint32_t kIdleTicks = 4;
constexpr uint64_t kAgeShare = 16; // a call is sampled 16 times per age
// The budget: sample_share percent of the thread's CPU time, earned at
// each tick, at most this much of it saved up (a call that gets hot after
// a quiet while has its first samples at once).
constexpr uint64_t kCreditCapNs = 2000000;
uint64_t ShareMilli; // sample_share, in thousandths
uint64_t TickTicks;
// How late the first sample of a call may come (after half its threshold)
// and still stand for the call's start: a tick's interval of CPU time (4
// ms at HZ=250), and a loaded machine's share of it.
constexpr uint64_t kLateNs = 8000000;
uint64_t LateTicks;
// What the kernel's part of a tick costs the thread (the signal's delivery
// and return, and one CPU clock reading), measured at start-up.
uint64_t SignalNs;
uint32_t Epoch; // samplerForgetSamples calls
uint64_t SamplesTaken; // verbosity=1's count
uint64_t UnwindFaults; // samples whose unwinding faulted
uint64_t StackSkips; // ticks skipped for want of room on an alternate stack
// The handler runs on the thread's own stack (it is installed without
// SA_ONSTACK: a program's 8 KiB sigaltstack cannot hold a signal frame of
// 3.4 KiB with AVX-512 and an unwinding). Only inside a program's handler
// that runs on its alternate stack does it land there: it ticks only with
// this much room below it (measured: ~5.7 KiB a sample with its unwinding),
// and such a handler holds our signal back while it runs unless the stack
// has room for a signal frame besides (samplerHandlerOnAltStack).
constexpr uintptr_t kStackNeed = 16 << 10;
uintptr_t FrameNeed; // a signal frame on this CPU, from AT_MINSIGSTKSZ
// While this thread's sample unwinds: where a fault in the unwinder goes
// back to (samplerFaultGuard).
__thread sigjmp_buf *UnwindGuard;
// The program blocked the signal (sigprocmask, pthread_sigmask): it stays
// unblocked, and the program reads it blocked.
__thread bool ProgramBlocks;

long sys(long Nr, long A = 0, long B = 0, long C = 0, long D = 0) {
  return arch::rawSyscall(Nr, A, B, C, D, 0, 0);
}

uint64_t cpuNs() {
  timespec C = {};
  sys(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, long(&C));
  return uint64_t(C.tv_sec) * 1000000000 + uint64_t(C.tv_nsec);
}

//===-- The timer ---------------------------------------------------------===//

// Thread Tid's CPU clock (the kernel's MAKE_THREAD_CPUCLOCK: CPUCLOCK_SCHED,
// per thread): a timer on it may be made by any thread of the process.
clockid_t threadClock(uint32_t Tid) {
  return clockid_t((~uint32_t(Tid) << 3) | 6);
}

void setTimer(SampleBuffer &B, uint64_t Ns) {
  struct itimerspec V = {};
  V.it_value.tv_sec = time_t(Ns / 1000000000);
  V.it_value.tv_nsec = long(Ns % 1000000000);
  V.it_interval = V.it_value; // periodic: no system call per tick
  sys(SYS_timer_settime, B.TimerId, 0, long(&V), 0);
}

// Runs F(B) on the thread's timer unless the program took the signal
// (samplerSignalTaken deletes the timers once no handler or this is
// inside: InHandler counts them, as a handler may interrupt this).
template <typename Fn> void withTimer(SampleBuffer &B, Fn F) {
  __atomic_fetch_add(&B.InHandler, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&SampleSig, __ATOMIC_SEQ_CST))
    F(B);
  __atomic_fetch_sub(&B.InHandler, 1, __ATOMIC_RELEASE);
}

// Makes thread Tid's timer (B's), started (a raw system call: timer_create
// is not async-signal-safe), unless it has one: whoever is first, the
// thread at its start or the watcher's look.
void makeTimer(SampleBuffer &B, uint32_t Tid, int Sig) {
  uint32_t None = 0;
  if (!__atomic_compare_exchange_n(&B.HasTimer, &None, 1, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
    return;
  struct sigevent Ev;
  memset(&Ev, 0, sizeof(Ev));
  Ev.sigev_notify = SIGEV_THREAD_ID;
  Ev.sigev_signo = Sig;
  Ev.sigev_value.sival_ptr = &Cookie;
  Ev._sigev_un._tid = pid_t(Tid); // sigev_notify_thread_id
  int Id = 0;
  if (sys(SYS_timer_create, threadClock(Tid), long(&Ev), long(&Id)) != 0) {
    __atomic_store_n(&B.HasTimer, 0, __ATOMIC_RELEASE);
    return;
  }
  B.TimerId = Id;
  B.LastTick = B.LastTickCpuNs = 0;
  __atomic_store_n(&B.Armed, 1, __ATOMIC_RELAXED);
  setTimer(B, B.PeriodNs);
  __atomic_store_n(&B.HasTimer, 2, __ATOMIC_RELEASE);
}

// The interval the thread's timer is to have now: see kTickNs. The ticks
// alone (without samples) take at most half of the budget.
uint64_t wantedPeriod(const SampleBuffer &B) {
  uint64_t P = ticksToNs(globalThresholdTicks) / 8;
  P = P < kTickNs ? kTickNs : P > kMaxTickNs ? kMaxTickNs : P;
  uint64_t Least = ShareMilli ? B.TickCostNs * 2000 / ShareMilli : 0;
  while (P < Least && P < kMaxTickNs)
    P *= 2;
  return P;
}

// The first level a sample of T reaches: the innermost live handler's floor
// (a signal handler of the program samples only its own frames).
uint32_t sampleFloor(const ThreadState &T) {
  uint32_t N = T.NumSignals;
  return N && N <= kMaxSignalNesting ? T.Signals[N - 1].Floor : 0;
}

// One unwinding: from the interrupted frame out to the activation of level
// Floor, the innermost frames first, kept in a ring of the last (outermost)
// kSampleFrames. libgcc hands each callback the frame's PC and function but
// the CFA of the frame inside it: a frame is written at the next callback,
// which knows its CFA.
struct Walk {
  const ThreadState *T;
  Sample *S;
  uintptr_t Pc;    // where the signal interrupted the thread
  bool Found;      // the interrupted frame was reached (the handler's are
                   // before it)
  bool Broken;     // given up: an unsafe place, or frames that make no sense
  uintptr_t Cfa;   // the last frame's
  uint32_t Before; // frames before it
  int32_t J, Floor; // the next timed level to meet, innermost first
  uint32_t N;       // frames written (may pass kSampleFrames)
  uintptr_t Fn;     // the frame waiting for its CFA (0: none)
};

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
  while (W.J >= W.Floor && (Cfa > uintptr_t(W.T->Frames[W.J].Addr) ||
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
  if (B.Reading ||
      uintptr_t(T.Frames[Depth - 1].Addr) == kUnderConstruction) {
    ++B.Dropped; // the exit path is reading the samples, or a hook is midway
    return Period;
  }
  constexpr uint32_t kTail = kSampleSlots - kSampleHead;
  Sample &S = B.Slots[B.Session < kSampleHead
                          ? B.Session
                          : kSampleHead + (B.Session - kSampleHead) % kTail];
  Walk W = {&T, &S, arch::contextPc(Uctx), false, false, 0, 0,
            int32_t(Depth - 1), int32_t(Floor), 0, 0};
  // Unwind tables are not always right at every instruction (hand-written
  // assembly in a library): the unwinder then reads a return address or a
  // register from where the tables point, and a wrong one faults. The fault
  // comes back here (samplerFaultGuard) and the sample is dropped.
  sigjmp_buf Jmp;
  if (sigsetjmp(Jmp, 0) == 0) {
    UnwindGuard = &Jmp;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    _Unwind_Backtrace(step, &W);
  } else {
    // Left the fault's handler by a jump: unblock what it blocked, for the
    // rest of this handler (its return restores the program's mask).
    sigset_t Faults;
    sigemptyset(&Faults);
    sigaddset(&Faults, SIGSEGV);
    sigaddset(&Faults, SIGBUS);
    sys(SYS_rt_sigprocmask, SIG_UNBLOCK, long(&Faults), 0, NSIG / 8);
    W.Broken = true;
    W.Fn = 0;
    __atomic_fetch_add(&UnwindFaults, 1, __ATOMIC_RELAXED);
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  UnwindGuard = nullptr;
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
  for (uint32_t I = 0; I < __spiketrap_desc_num_callees(D) && N < kMaxCandidates; ++I)
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
      (Now - Hot.Start - Hot.ChildTicks) * 2 < Thr || !D || !__spiketrap_desc_num_callees(D))
    return false;
  if (B.RearmStart == Hot.Start && B.RearmDesc == D &&
      (B.NumRearmed || Now - B.RearmAt < Thr))
    return false;
  return !runDelayExplains(T, Hot.Start, Now, Thr);
}

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
  struct rusage Use = {};
  sys(SYS_getrusage, RUSAGE_THREAD, long(&Use));
  uint64_t Switches = uint64_t(Use.ru_nvcsw) - T.ProcReadSleeps; // less ours
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
  struct sigaction Dfl = {};
  Dfl.sa_handler = SIG_DFL;
  __sigaction(Sig, &Dfl, nullptr);
  if (ProgramBlocks && Uctx)
    sigaddset(&static_cast<ucontext_t *>(Uctx)->uc_sigmask, Sig);
  if (!Info ||
      sys(SYS_rt_tgsigqueueinfo, long(Pid), sys(SYS_gettid), Sig, long(Info)))
    sys(SYS_tgkill, long(Pid), sys(SYS_gettid), Sig);
}

// Whether there are Extra bytes and a tick's worth of room below Sp, on
// T's innermost program handler's alternate stack if Sp is on it (anywhere
// else: the thread's own stack, which is not ours to judge).
bool roomOnAltStack(const ThreadState &T, uintptr_t Sp, uintptr_t Extra) {
  uint32_t N = T.NumSignals;
  if (!N || N > kMaxSignalNesting)
    return true;
  const SignalContext &C = T.Signals[N - 1];
  if (!C.AltLo || Sp < C.AltLo || Sp >= C.AltHi)
    return true;
  return Sp - C.AltLo >= kStackNeed + Extra;
}

void handler(int Sig, siginfo_t *Info, void *Uctx) {
  if (!Info || Info->si_code != SI_TIMER ||
      Info->si_value.sival_ptr != &Cookie) {
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
  uint64_t C0 = cpuNs();
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
    uint64_t C1 = cpuNs();
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

_Unwind_Reason_Code countFrames(_Unwind_Context *, void *P) {
  ++*static_cast<int *>(P);
  return _URC_NO_REASON;
}

//===-- The watcher's side: buffers ---------------------------------------===//

// Buffers of threads that exited, for the next; and how many the last look
// wanted. Taken under the registry lock (the watcher) and at thread exit.
SpinLock FreeLock;
SampleBuffer *FreeList;
uint32_t NumFree, Wanted;
constexpr uint32_t kMaxBuffers = 1024, kReserve = 2;
// Every buffer made, in use or free: Allocated of them.
SampleBuffer *AllBuffers[kMaxBuffers];
uint32_t Allocated;

SampleBuffer *takeFree() {
  FreeLock.lock();
  SampleBuffer *B = FreeList;
  if (B) {
    FreeList = B->NextFree;
    --NumFree;
  }
  FreeLock.unlock();
  return B;
}

void giveBack(SampleBuffer *B) {
  FreeLock.lock();
  B->NextFree = FreeList;
  FreeList = B;
  ++NumFree;
  FreeLock.unlock();
}

// Gives T buffer B, with the budget and the timer's interval a fresh
// thread starts with.
void attach(ThreadState &T, SampleBuffer *B) {
  B->PeriodNs = wantedPeriod(*B);
  B->CreditNs = int64_t(kCreditCapNs * ShareMilli / 1000);
  __atomic_store_n(&T.Samples, B, __ATOMIC_RELEASE);
}

// A signal's round trip on this thread (its delivery, the return from the
// handler, a CPU clock reading), the least of a few: the part of a tick's
// cost the handler cannot see, a few us on our VM. Before our handler is in
// place: Sig's action is the default.
void emptyHandler(int, siginfo_t *, void *) {}
uint64_t measureSignal(int Sig) {
  struct sigaction Empty = {}, Old;
  Empty.sa_sigaction = emptyHandler;
  Empty.sa_flags = SA_SIGINFO;
  sigfillset(&Empty.sa_mask);
  if (__sigaction(Sig, &Empty, &Old) != 0)
    return 0;
  uint64_t Set = 1ull << (Sig - 1), Mask = 0;
  sys(SYS_rt_sigprocmask, SIG_UNBLOCK, long(&Set), long(&Mask), sizeof(Set));
  long Tid = sys(SYS_gettid);
  uint64_t Least = UINT64_MAX;
  for (int I = 0; I < 8; ++I) {
    uint64_t C0 = cpuNs();
    sys(SYS_tgkill, long(Pid), Tid, Sig);
    uint64_t C1 = cpuNs();
    if (C1 - C0 < Least)
      Least = C1 - C0;
  }
  sys(SYS_rt_sigprocmask, SIG_SETMASK, long(&Mask), 0, sizeof(Mask));
  __sigaction(Sig, &Old, nullptr);
  return Least == UINT64_MAX ? 0 : Least;
}

} // namespace

//===-- Start-up, the watcher's look, exit, fork --------------------------===//

namespace {
// The unwinder finds a PC's unwind entry with _dl_find_object (glibc 2.35
// on; libgcc 12 uses it when built against such a glibc), which takes no
// lock. Before, it walked dl_iterate_phdr under the loader's lock: a sample
// taken while the thread held it (in dlopen) would wait for itself.
bool lockFreeUnwinding() {
  int Major = 0, Minor = 0;
  const char *V = gnu_get_libc_version();
  return V && sscanf(V, "%d.%d", &Major, &Minor) == 2 &&
         (Major > 2 || (Major == 2 && Minor >= 35));
}

// A sanitizer's interceptors take the waits the runtime interposes (so a
// sample could interrupt one: EINTR the program never saw before), and
// ThreadSanitizer holds asynchronous signals back until a safe point.
bool underSanitizer() {
  static const char *const Inits[] = {"__asan_init", "__tsan_init",
                                      "__msan_init", "__hwasan_init"};
  for (const char *Init : Inits)
    if (dlsym(RTLD_DEFAULT, Init))
      return true;
  return false;
}

// Valgrind runs the program on a CPU of its own: its tools' waits and
// signals are its own (an interposed sleep returned EINTR there), and its
// thread CPU clocks are not the program's. Its core preloads a library that
// defines _vgnU_freeres, whatever the tool.
bool underValgrind() { return dlsym(RTLD_DEFAULT, "_vgnU_freeres"); }
} // namespace

bool samplerInit() {
  if (!flags.enabled || !arch::kHasCounter)
    return false;
  // dlsym may call the program's (instrumented) malloc.
  RecursionGuard Guard;
  if (!lockFreeUnwinding()) {
    if (flags.verbosity >= 1 && flags.sample)
      logLine("sample=1: this C library is older than glibc 2.35 (unwind "
              "tables are looked up under the loader's lock); no sampling");
    return false;
  }
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
  if (!flags.sample)
    return false;
  if (underSanitizer()) {
    if (flags.verbosity >= 1)
      logLine("sample=1: a sanitizer's interceptors have the waiting calls "
              "the samples must not interrupt; no sampling");
    return false;
  }
  if (underValgrind()) {
    if (flags.verbosity >= 1)
      logLine("sample=1: under valgrind (its signals and CPU clocks are its "
              "own); no sampling");
    return false;
  }
  Pid = uint32_t(getpid());
  if (flags.sample_share < 1 || flags.sample_share > 50) {
    logLine("sample_share={}: not a percent from 1 to 50; 1 is used",
            int64_t(flags.sample_share));
    flags.sample_share = 1;
  }
  ShareMilli = uint64_t(flags.sample_share) * 1000;
  // The kernel's minimum for a signal frame (with AVX-512 ~3.4 KiB; 0 on
  // kernels before 5.14: 2 KiB is the old MINSIGSTKSZ), and its alignment.
  FrameNeed = uintptr_t(getauxval(AT_MINSIGSTKSZ));
  FrameNeed = (FrameNeed > 2048 ? FrameNeed : 2048) + 1024;
  TickTicks = nsToTicks(kTickNs);
  LateTicks = nsToTicks(kLateNs);
  if (auto *E = reinterpret_cast<const ElfW(Ehdr) *>(
          getauxval(AT_SYSINFO_EHDR))) {
    auto *Ph = reinterpret_cast<const ElfW(Phdr) *>(
        reinterpret_cast<const char *>(E) + E->e_phoff);
    for (int I = 0; I < E->e_phnum; ++I)
      if (Ph[I].p_type == PT_LOAD) {
        VdsoLo = uintptr_t(E);
        VdsoHi = VdsoLo + Ph[I].p_vaddr + Ph[I].p_memsz;
      }
  }
  // A real-time signal the program leaves alone, from the last down (
  // programs hand them out from SIGRTMIN up).
  struct sigaction Ours = {};
  Ours.sa_sigaction = handler;
  // Not SA_ONSTACK: the thread's own stack (kStackNeed says why).
  Ours.sa_flags = SA_SIGINFO | SA_RESTART;
  sigfillset(&Ours.sa_mask);
  // A fault in the handler's unwinding must reach a handler
  // (samplerFaultGuard): blocked, the kernel would kill the process.
  sigdelset(&Ours.sa_mask, SIGSEGV);
  sigdelset(&Ours.sa_mask, SIGBUS);
  for (int Sig = SIGRTMAX; Sig >= SIGRTMIN + 8; --Sig) {
    struct sigaction Old;
    if (__sigaction(Sig, nullptr, &Old) != 0 ||
        (Old.sa_flags & SA_SIGINFO) || Old.sa_handler != SIG_DFL)
      continue;
    SignalNs = measureSignal(Sig);
    if (__sigaction(Sig, &Ours, nullptr) != 0)
      continue;
    __atomic_store_n(&SampleSig, Sig, __ATOMIC_RELEASE);
    samplerRefill(); // the first threads' buffers
    return true;
  }
  return false;
}

SPIKETRAP_RACY_READER HotCall findHotCall(ThreadState &T, uint64_t Now) {
  HotCall H = {0, 0, UINT64_MAX};
  if (SPIKETRAP_RACY(T.Status) != StatusActive)
    return H;
  uint32_t Depth = SPIKETRAP_RACY(T.Depth);
  if (!Depth || Depth > kMaxDepth)
    return H;
  for (uint32_t J = 0; J < Depth; ++J) {
    const Frame &F = T.Frames[J];
    uint64_t Thr = resolvedThreshold(SPIKETRAP_RACY(F.Threshold));
    if (uintptr_t(SPIKETRAP_RACY(F.Addr)) == kUnderConstruction ||
        Thr == kNever)
      continue;
    uint64_t Start = SPIKETRAP_RACY(F.Start), Half = Start + Thr / 2;
    if (Now >= Half) {
      H.Depth = Depth;
      H.Start = Start;
    }
    // A deadline only for a call open a quarter of it already: a loop of
    // short calls would have the watcher chase each one.
    else if (Half < H.Next && (Now - Start) * 4 >= Thr / 2)
      H.Next = Half;
  }
  return H;
}

SPIKETRAP_RACY_READER void samplerWatch(ThreadState &T, uint64_t Now,
                                        bool Waiting) {
  (void)Now;
  // Not in a wait (an exec among them): its timer would not fire there
  // anyway, and is seen to at a look after.
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Sig || Waiting || SPIKETRAP_RACY(T.Status) != StatusActive ||
      !SPIKETRAP_RACY(T.Depth))
    return;
  SampleBuffer *B = T.Samples;
  if (!B) {
    if (!(B = takeFree())) {
      ++Wanted;
      return;
    }
    attach(T, B);
  }
  withTimer(*B, [&](SampleBuffer &B) {
    uint32_t Has = __atomic_load_n(&B.HasTimer, __ATOMIC_ACQUIRE);
    if (!Has) {
      makeTimer(B, T.Tid, Sig);
      return;
    }
    uint32_t Off = 0;
    // Stopped by its last ticks (no call open then): started again. The
    // interval the thread chose last.
    if (Has == 2 &&
        __atomic_compare_exchange_n(&B.Armed, &Off, 1, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_RELAXED)) {
      B.LastTick = 0; // the time since is no run of the thread's
      setTimer(B, __atomic_load_n(&B.PeriodNs, __ATOMIC_RELAXED));
    }
  });
}

void samplerRefill() {
  // A few in reserve: a thread's first sampling does not wait a tick.
  if (NumFree < kReserve)
    Wanted += kReserve - NumFree;
  for (; Wanted && Allocated < kMaxBuffers; --Wanted) {
    void *P = mmap(nullptr, sizeof(SampleBuffer), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (P == MAP_FAILED)
      break;
    // Resident now: a page fault in the handler would land in the call
    // being sampled.
    madvise(P, sizeof(SampleBuffer), MADV_POPULATE_WRITE);
    for (size_t Off = 0; Off < sizeof(SampleBuffer); Off += 4096)
      arch::touchForWrite(static_cast<char *>(P) + Off);
    auto *B = static_cast<SampleBuffer *>(P); // zeroed: a fresh buffer
    AllBuffers[Allocated] = B;
    __atomic_store_n(&Allocated, Allocated + 1, __ATOMIC_RELEASE);
    giveBack(B);
  }
  Wanted = 0;
}

namespace {
// Deletes B's timer (a tick it queued goes with it), once no handler of the
// thread nor the watcher is at it when Wait.
void deleteTimer(SampleBuffer &B) {
  if (__atomic_exchange_n(&B.HasTimer, 0, __ATOMIC_ACQ_REL) == 2)
    sys(SYS_timer_delete, B.TimerId);
  __atomic_store_n(&B.Armed, 0, __ATOMIC_RELAXED);
}
} // namespace

void samplerDetach(ThreadState &T) {
  SampleBuffer *B = T.Samples;
  if (!B)
    return;
  // Against the watcher's look (makeTimer): it no longer sees this thread
  // (out of the registry's list), but one may be midway.
  unsigned Spins = 0;
  while (__atomic_load_n(&B->HasTimer, __ATOMIC_ACQUIRE) == 1)
    backOff(Spins);
  __atomic_store_n(&T.Samples, nullptr, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  deleteTimer(*B);
  B->Reading = B->Live = B->IdleTicks = 0;
  B->HotStart = B->NextSample = B->LastTick = B->LastTickCpuNs = 0;
  B->Taken = B->Session = 0;
  for (Sample &S : B->Slots) // the next thread's spikes must not see them
    S.Frames = 0;
  giveBack(B);
}

void samplerAfterForkChild() {
  Pid = uint32_t(getpid());
  // Timers are not inherited; the other threads' buffers are lost. The
  // watcher's look makes this thread's timer once its quiet time is over
  // (a child between fork and exec gets no tick).
  if (SampleBuffer *B = threadState.Samples) {
    B->HasTimer = B->Armed = B->Live = 0;
    B->LastTick = B->LastTickCpuNs = 0;
  }
  ProgramBlocks = false;
  FreeLock.reset();
}

uint32_t samplerRearmed(const ThreadState &T, uint32_t Level,
                        const spiketrap_desc **Out) {
  const SampleBuffer *B = T.Samples;
  const Frame &F = T.Frames[Level];
  if (!B || __atomic_load_n(&B->RearmStart, __ATOMIC_ACQUIRE) != F.Start ||
      B->RearmDesc != F.Desc)
    return 0;
  uint32_t N = B->NumRearmed < kMaxCandidates ? B->NumRearmed : 0;
  for (uint32_t I = 0; I < N; ++I)
    Out[I] = B->Rearmed[I];
  return N;
}

SamplerStats samplerStats() {
  SamplerStats S = {};
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  // A buffer keeps its counts from thread to thread.
  for (uint32_t I = 0; I < N; ++I) {
    const SampleBuffer &B = *AllBuffers[I];
    S.Ticks += __atomic_load_n(&B.Ticks, __ATOMIC_RELAXED);
    S.OverBudget += __atomic_load_n(&B.OverBudget, __ATOMIC_RELAXED);
    S.SpentNs += __atomic_load_n(&B.SpentNs, __ATOMIC_RELAXED);
    S.CpuNs += __atomic_load_n(&B.SeenCpuNs, __ATOMIC_RELAXED);
    S.SampledNs += __atomic_load_n(&B.SampledNs, __ATOMIC_RELAXED);
    S.SampledTicks += __atomic_load_n(&B.SampledTicks, __ATOMIC_RELAXED);
  }
  S.Samples = __atomic_load_n(&SamplesTaken, __ATOMIC_RELAXED);
  S.Buffers = N;
  S.UnwindFaults = __atomic_load_n(&UnwindFaults, __ATOMIC_RELAXED);
  S.SignalNs = SignalNs;
  S.StackSkips = __atomic_load_n(&StackSkips, __ATOMIC_RELAXED);
  return S;
}

void samplerHandlerOnAltStack(const ThreadState &T, uintptr_t Sp) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_RELAXED);
  if (!Sig || roomOnAltStack(T, Sp, FrameNeed))
    return;
  // Held back until the handler returns (its sigreturn restores the mask).
  uint64_t Set = 1ull << (Sig - 1);
  sys(SYS_rt_sigprocmask, SIG_BLOCK, long(&Set), 0, sizeof(Set));
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

void samplerForgetSamples() {
  __atomic_fetch_add(&Epoch, 1, __ATOMIC_RELAXED);
}

void samplerThreadStarts(ThreadState &T) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Sig || T.Samples)
    return;
  SampleBuffer *B = takeFree();
  if (!B)
    return; // the watcher's next look finds one
  attach(T, B);
  withTimer(*B, [&](SampleBuffer &B) { makeTimer(B, T.Tid, Sig); });
}

bool samplerBeforeExec() {
  ThreadState &T = threadState;
  SampleBuffer *B = T.Samples;
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!B || !Sig || T.Status != StatusActive ||
      uint32_t(sys(SYS_getpid)) != Pid)
    return false;
  // Against the watcher's look: it makes or starts no timer for a thread
  // in a wait, and this counts InWait as a wait does.
  __atomic_fetch_add(&T.InWait, 1, __ATOMIC_SEQ_CST);
  withTimer(*B, [](SampleBuffer &B) {
    unsigned Spins = 0;
    while (__atomic_load_n(&B.HasTimer, __ATOMIC_ACQUIRE) == 1)
      backOff(Spins);
    deleteTimer(B);
  });
  // A tick raised as this thread last returned to user mode, if the
  // program blocks the signal with a system call of its own: taken now.
  uint64_t Set = 1ull << (Sig - 1);
  timespec Zero = {0, 0};
  while (sys(SYS_rt_sigtimedwait, long(&Set), 0, long(&Zero), sizeof(Set)) ==
         Sig) {
  }
  return true;
}

void samplerAfterFailedExec() {
  // The watcher's next look makes the timer again.
  __atomic_fetch_sub(&threadState.InWait, 1, __ATOMIC_SEQ_CST);
}

bool samplerHandlerIs(const struct sigaction &A) {
  return (A.sa_flags & SA_SIGINFO) && A.sa_sigaction == handler;
}

bool samplerHandlerIs(sighandler_t H) {
  return reinterpret_cast<void *>(H) == reinterpret_cast<void *>(handler);
}

namespace {
// Stops sampling on the signal the program takes, for the thread that has
// buffer B: its timer goes (a signal it had pending goes with it), once no
// handler or look is at it.
void stopBuffer(SampleBuffer &B) {
  unsigned Spins = 0;
  uint64_t Until = now() + nsToTicks(10000000);
  while (__atomic_load_n(&B.InHandler, __ATOMIC_SEQ_CST) && now() < Until)
    backOff(Spins);
  deleteTimer(B);
}
} // namespace

void samplerSignalTaken(int Sig) {
  int Ours = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Ours || Sig != Ours)
    return;
  // The program's action must be all its own: no more of our signals, and
  // none of ours still on the way. Sampling stops for the run.
  __atomic_store_n(&SampleSig, 0, __ATOMIC_SEQ_CST);
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    stopBuffer(*AllBuffers[I]);
  if (flags.verbosity >= 1)
    logLine("sample: the program takes signal {}; sampling stops", Sig);
}

// The program sandboxes itself (spiketrap_sandbox.cpp): as above, silently.
void samplerStopForRun() {
  if (!__atomic_exchange_n(&SampleSig, 0, __ATOMIC_SEQ_CST))
    return;
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I)
    stopBuffer(*AllBuffers[I]);
}

//===-- The culprit, when a spike is recorded -----------------------------===//

namespace {
bool inVdso(uintptr_t Fn) { return Fn >= VdsoLo && Fn < VdsoHi; }

// Samples that must agree, at least: one. The ticks come at a share of the
// thread's CPU time (4 ms of it at HZ=250), not of the wall clock: a call a
// preemption stretched is not sampled more where its last microseconds run,
// and a one-off spike of a few milliseconds holds one sample or none. Most
// of the call's samples must still agree, and stand for most of its time.
constexpr uint32_t kMinAgree = 1;
inline uint64_t min(uint64_t A, uint64_t B) { return A < B ? A : B; }

// Whether two frames are the same activation as far as samples tell: a
// timed one by its start, another by its function (the same function at the
// same place in the chain, in consecutive samples).
bool sameFrame(const SampleFrame &A, const SampleFrame &B) {
  return A.Desc ? B.Desc == A.Desc && B.Start == A.Start
                : !B.Desc && B.Fn == A.Fn;
}
} // namespace

uint32_t sampledChain(ThreadState &T, uint32_t Level, uint64_t End,
                      SampledFrame *Out, SampledStats &Stats) {
  Stats = {};
  SampleBuffer *B = T.Samples;
  if (!B || !B->Taken)
    return 0;
  __atomic_store_n(&B->Reading, 1, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const Frame &K = T.Frames[Level];
  // The samples taken while the call was open, oldest first, and where its
  // activation is in each.
  const Sample *W[kSampleSlots];
  uint32_t Pos[kSampleSlots], N = 0;
  uint32_t Now = __atomic_load_n(&Epoch, __ATOMIC_RELAXED);
  for (const Sample &S : B->Slots) {
    if (!S.Frames || S.Time < K.Start || S.Time > End || S.Epoch != Now)
      continue;
    for (uint32_t P = 0; P < S.Frames; ++P)
      if (S.F[P].Desc == K.Desc && S.F[P].Start == K.Start) {
        // In time order (the slots are not: the first few stay).
        uint32_t I = N++;
        for (; I && W[I - 1]->Time > S.Time; --I)
          W[I] = W[I - 1], Pos[I] = Pos[I - 1];
        W[I] = &S;
        Pos[I] = P;
        break;
      }
  }
  Stats.Samples = N;
  if (!N) {
    __atomic_store_n(&B->Reading, 0, __ATOMIC_RELAXED);
    return 0;
  }
  // The time each sample stands for, [From, To): halfway to its neighbours
  // in its run (the thread ran, sampled every period, in between); a period
  // at most across runs (it waited, or was not sampled, in between). The
  // call's first sample stands for its start when it came in time (the
  // time before half its threshold is not sampled); the last for its end
  // when the call ended before the next.
  uint64_t From[kSampleSlots], To[kSampleSlots];
  uint64_t Thr = resolvedThreshold(K.Threshold);
  for (uint32_t I = 0; I < N; ++I) {
    const Sample &S = *W[I];
    uint64_t P = nsToTicks(uint64_t(S.PeriodUs) * 1000);
    if (I && W[I - 1]->Run == S.Run)
      From[I] = S.Time - (S.Time - W[I - 1]->Time) / 2;
    else if (I)
      From[I] = S.Time - min(P, (S.Time - W[I - 1]->Time) / 2);
    else if (S.Time - K.Start <= Thr / 2 + LateTicks)
      From[I] = K.Start;
    else
      From[I] = S.Time - min(P, S.Time - K.Start);
    if (I + 1 < N && W[I + 1]->Run == S.Run)
      To[I] = S.Time + (W[I + 1]->Time - S.Time) / 2;
    else if (I + 1 < N)
      To[I] = S.Time + min(P, (W[I + 1]->Time - S.Time) / 2);
    else
      To[I] = End - S.Time <= 2 * P ? End : S.Time + P;
  }
  // Above the call: the frames between the thread's timed levels, the same
  // in every sample while the call is open (the latest has them).
  uint32_t Count = 0, At = 0;
  const Sample &Last = *W[N - 1];
  for (uint32_t P = 0; P <= Pos[N - 1]; ++P) {
    const SampleFrame &F = Last.F[P];
    if (F.Desc)
      for (uint32_t J = Level + 1; J-- > 0;)
        if (T.Frames[J].Desc == F.Desc && T.Frames[J].Start == F.Start) {
          At = J;
          break;
        }
    Out[Count++] = {F.Fn, F.Desc, At,
                    F.Desc ? uint32_t(SampledActivation | SampledTimed) : 0};
  }
  // Below it: the samples of its own time (none in a timed call inside it:
  // that call's time is its own, and its spike names it), as deep as one
  // activation holds most of them. Those that agree so far are X[Lo, Hi)
  // (indices into W), each Depth frames below the call's activation.
  uint32_t X[kSampleSlots], NX = 0;
  for (uint32_t I = 0; I < N; ++I) {
    bool Own = true;
    for (uint32_t P = Pos[I] + 1; P < W[I]->Frames && Own; ++P)
      Own = !W[I]->F[P].Desc;
    if (Own)
      X[NX++] = I;
  }
  Stats.Samples = NX;
  // Its own time, which most must stand for: samples that all came late in
  // a long call (it waited between them) say little about it.
  uint64_t Own = End - K.Start;
  Own = K.ChildTicks < Own ? Own - K.ChildTicks : 0;
  auto frameAt = [&](uint32_t I, uint32_t Depth) -> const SampleFrame * {
    uint32_t P = Pos[X[I]] + Depth;
    return P < W[X[I]]->Frames ? &W[X[I]]->F[P] : nullptr;
  };
  uint32_t Lo = 0, Hi = NX, Depth = 1;
  while (Count < kMaxSampled) {
    uint32_t BestLo = 0, BestLen = 0;
    for (uint32_t I = Lo; I < Hi;) {
      const SampleFrame *F = frameAt(I, Depth);
      if (!F) {
        ++I;
        continue;
      }
      uint32_t E = I + 1;
      for (const SampleFrame *G; E < Hi && (G = frameAt(E, Depth)) &&
                                 sameFrame(*F, *G);)
        ++E;
      if (E - I > BestLen)
        BestLo = I, BestLen = E - I;
      I = E;
    }
    uint64_t Ran = 0;
    uint32_t Blocked = 0;
    for (uint32_t I = BestLo; I < BestLo + BestLen; ++I) {
      Ran += To[X[I]] - From[X[I]];
      Blocked += W[X[I]]->Blocked != 0;
    }
    if (BestLen < kMinAgree || BestLen * 2 <= NX || Ran * 2 <= Own)
      break;
    const SampleFrame &F = *frameAt(BestLo, Depth);
    // A loop reading the clock is no one long call of clock_gettime: each
    // takes tens of nanoseconds (the vDSO), however many samples land in one.
    // Stop above the vDSO and above a function that is mostly a call into it.
    uint32_t InVdso = 0;
    for (uint32_t I = BestLo; I < BestLo + BestLen; ++I) {
      const SampleFrame *G = frameAt(I, Depth + 1);
      InVdso += G && inVdso(G->Fn);
    }
    if (!F.Desc && (inVdso(F.Fn) || InVdso * 2 > BestLen))
      break;
    Out[Count++] = {F.Fn, F.Desc, Level,
                    SampledCulprit | (F.Desc ? uint32_t(SampledTimed) : 0)};
    Lo = BestLo;
    Hi = BestLo + BestLen;
    ++Depth;
    Stats.Agree = BestLen;
    Stats.Blocked = Blocked;
    Stats.First = W[X[Lo]]->Time;
    Stats.Last = W[X[Hi - 1]]->Time;
    Stats.From = From[X[Lo]];
    Stats.Ran = Ran;
  }
  __atomic_store_n(&B->Reading, 0, __ATOMIC_RELAXED);
  return Count;
}

//===-- The frames between timed levels, at a spike's exit ----------------===//

// The spiking call's exit runs while its callers are still on the stack:
// one unwinding from here finds every frame between the thread's timed
// levels, whether a sample saw them or not (a switched-off function seen
// by no sample, a library's). The same walk as a sample's (a Walk from its
// own frame: the runtime's frames lie inside the spiking call's
// activation), so the frames read as a sample's do. With unwind tables on
// the way (the hooks, the recorder, the trampolines): ~0.3 us a frame.
namespace {
// This thread's last walk: its spiking level, the floor it started from,
// that call's start and the floor level's activation. A caller open then
// whose spike comes after (the same activation: it started before and is
// open still) has its frames in that deeper spike's record, which the
// report shows it as a level of: no second walk (a leaf's spike and its
// callers' cost one). The floor's activation tells a fiber's stack of
// calls from another's (spiketrap_fibers.cpp swaps them).
struct LastWalk {
  uint32_t Level, Floor;
  uint64_t Start, FloorStart;
  const spiketrap_desc *FloorDesc;
};
__thread LastWalk Walked;
} // namespace

uint32_t framesAbove(ThreadState &T, uint32_t Level, SampledFrame *Out,
                     uint32_t N) {
  uint32_t Floor = sampleFloor(T);
  if (!__atomic_load_n(&UnwindReady, __ATOMIC_ACQUIRE) || Level < Floor ||
      Level >= T.Depth || Level >= kMaxDepth)
    return N;
  // A spike in a program's handler on its small alternate stack: an
  // unwinding there needs ~5 KiB more than the recorder's own (the samples
  // keep the same room).
  if (!roomOnAltStack(T, uintptr_t(__builtin_frame_address(0)), 0))
    return N;
  const LastWalk &L = Walked;
  if (L.Level > Level && L.Floor <= Floor && T.Frames[Level].Start <= L.Start &&
      T.Frames[L.Floor].Desc == L.FloorDesc &&
      T.Frames[L.Floor].Start == L.FloorStart)
    return N;
  // The culprit chain (below the call) stays; what is above it is replaced.
  uint32_t Culprit = 0;
  while (Culprit < N && (Out[N - 1 - Culprit].Flags & SampledCulprit))
    ++Culprit;
  Sample S;
  Walk W = {&T, &S, 0, false, false, 0, 0, int32_t(Level), int32_t(Floor),
            0,  0};
  // A sample taken meanwhile would take the fault guard (and a handler that
  // spikes would put it back as it found it).
  SampleBuffer *B = T.Samples;
  uint32_t Reading = B ? B->Reading : 0;
  if (B)
    __atomic_store_n(&B->Reading, 1, __ATOMIC_RELAXED);
  sigjmp_buf Jmp, *Outer = UnwindGuard;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (sigsetjmp(Jmp, 0) == 0) {
    UnwindGuard = &Jmp;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    _Unwind_Backtrace(step, &W);
  } else {
    // Wrong unwind tables: the fault's handler jumped back. What it
    // blocked besides the fault (its sa_mask) stays blocked: rare, and
    // reading the mask first would cost a system call per spike.
    sigset_t Faults;
    sigemptyset(&Faults);
    sigaddset(&Faults, SIGSEGV);
    sigaddset(&Faults, SIGBUS);
    sys(SYS_rt_sigprocmask, SIG_UNBLOCK, long(&Faults), 0, NSIG / 8);
    W.Broken = true;
    __atomic_fetch_add(&UnwindFaults, 1, __ATOMIC_RELAXED);
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  UnwindGuard = Outer;
  if (B)
    __atomic_store_n(&B->Reading, Reading, __ATOMIC_RELAXED);
  // Out past the first timed frame, or nothing (code without unwind
  // tables on the way, another stack: the samples' frames stay).
  if (W.Broken || W.J >= W.Floor)
    return N;
  // Outermost first, down to the call's activation.
  uint32_t Kept = W.N < kSampleFrames ? W.N : kSampleFrames, Above = 0;
  const Frame &K = T.Frames[Level];
  for (uint32_t I = 0; I < Kept; ++I) {
    const SampleFrame &F = S.F[(W.N - 1 - I) % kSampleFrames];
    if (F.Desc == K.Desc && F.Start == K.Start)
      Above = I + 1;
  }
  if (!Above)
    return N; // more than kSampleFrames frames above it
  Walked = {Level, Floor, K.Start, T.Frames[Floor].Start, T.Frames[Floor].Desc};
  // Nothing between the timed levels and no culprit chain: no frames (the
  // record stays as small as before).
  bool Between = false;
  for (uint32_t I = 0; I < Above && !Between; ++I)
    Between = !S.F[(W.N - 1 - I) % kSampleFrames].Desc;
  if (!Between && !Culprit)
    return 0;
  if (Above + Culprit > kMaxSampled)
    Culprit = kMaxSampled - Above;
  memmove(Out + Above, Out + N - Culprit, Culprit * sizeof(SampledFrame));
  uint32_t At = Floor;
  for (uint32_t I = 0; I < Above; ++I) {
    const SampleFrame &F = S.F[(W.N - 1 - I) % kSampleFrames];
    if (F.Desc)
      for (uint32_t J = Level + 1; J-- > 0;)
        if (T.Frames[J].Desc == F.Desc && T.Frames[J].Start == F.Start) {
          At = J;
          break;
        }
    Out[I] = {F.Fn, F.Desc, At,
              F.Desc ? uint32_t(SampledActivation | SampledTimed) : 0};
  }
  // A patched site's trampoline calls the exit hook once the function's
  // code returned: the activation reads as a sample's (the function's
  // code, merged with its trampoline), or its callee below would read as
  // the function's own body.
  if (uintptr_t Entry = uintptr_t(__spiketrap_desc_entry(K.Desc)))
    Out[Above - 1].Fn = Entry;
  return Above + Culprit;
}

} // namespace __spiketrap

// The program's signal masks: the sampling signal stays unblocked, so a
// tick is never pending where the program's sigwait or signalfd would take
// it (the kernel raises it as the thread returns to user mode; unblocked,
// it is handled right there). The program reads back the mask it set. As
// glibc's, a change leaves its own signals (SIGCANCEL, SIGSETXID) alone.
#if SPIKETRAP_INTERPOSE_WAITS
namespace __spiketrap {
namespace {
int changeMask(int How, const sigset_t *Set, sigset_t *Old) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_RELAXED);
  sigset_t Copy;
  const sigset_t *Use = Set;
  bool Was = ProgramBlocks;
  if (Set && (How == SIG_BLOCK || How == SIG_SETMASK)) {
    Copy = *Set;
    sigdelset(&Copy, __SIGRTMIN);     // SIGCANCEL
    sigdelset(&Copy, __SIGRTMIN + 1); // SIGSETXID
    if (Sig) {
      bool In = sigismember(&Copy, Sig) == 1;
      ProgramBlocks = How == SIG_SETMASK ? In : Was || In;
      sigdelset(&Copy, Sig);
    }
    Use = &Copy;
  } else if (Set && How == SIG_UNBLOCK && Sig && sigismember(Set, Sig) == 1) {
    ProgramBlocks = false;
  }
  long R = sys(SYS_rt_sigprocmask, How, long(Use), long(Old), NSIG / 8);
  if (R) {
    ProgramBlocks = Was;
    return int(-R);
  }
  if (Old && Sig && Was)
    sigaddset(Old, Sig);
  return 0;
}
} // namespace
} // namespace __spiketrap

SPIKETRAP_INTERPOSE int pthread_sigmask(int How, const sigset_t *Set,
                                        sigset_t *Old) noexcept {
  return __spiketrap::changeMask(How, Set, Old);
}
SPIKETRAP_INTERPOSE int sigprocmask(int How, const sigset_t *Set,
                                    sigset_t *Old) noexcept {
  if (int E = __spiketrap::changeMask(How, Set, Old)) {
    errno = E;
    return -1;
  }
  return 0;
}
#endif
