//===- spiketrap_sampler.cpp - Samples of a call that runs long -----------===//
//
// The signal (a real-time one the program leaves at its default action,
// from SIGRTMAX down), its handler, the per-thread sample buffers and
// timers, and the culprit a spike's samples agree on. Who sends what:
//   - a running thread ticks itself: its own timer (SIGEV_THREAD_ID)
//     signals it every eighth of the global threshold (1 ms at the default,
//     at most 50 ms), or when one of its open calls will pass half its
//     threshold, if that is sooner. A tick costs the thread its timer's
//     interrupt and signal (~45 us on our VM, a few us on hardware) while
//     it runs, nothing while it waits; the watcher thread's look cost as
//     much a wake-up, was woken at every wait's end of an event loop, and
//     signalled the thread besides (docs/performance.md);
//   - while a call is open past half its threshold the handler samples it,
//     every 100 us, or 1/16 of the call's age, or 20 times what the last
//     sample cost, whichever is longest;
//   - the timer stops after a few ticks with no call open (the thread runs
//     code that is not timed, or waits in a call that is not interposed),
//     and when a tick lands in an interposed wait that restarts (a read, a
//     lock); the wait's end starts it again. Around an interposed wait that
//     may last (a sleep, a poll, a condition variable: samplerPauseForWait;
//     no signal makes a sleep or a poll return EINTR) the signal is blocked
//     instead: a tick due meanwhile waits for the wait's end (a call of its
//     own mask, ppoll & co., stops the timer);
//   - a thread starts ticking when it registers, and the watcher thread
//     (samplerWatch) starts one that has a call open and does not tick
//     (one queued signal, rt_tgsigqueueinfo, carrying our cookie).
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
// Our signals carry its address: a program's own signal of that number (it
// has no handler of its own for it, or we would have moved) is ignored.
// The watcher's carry Cookie[0], which it counts (Kicks); a thread's own
// start Cookie[1].
char Cookie[2];
uint32_t Pid, Uid;

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

constexpr uint64_t kPeriodNs = 100000; // the fastest sampling: every 100 us
// A running thread's tick, the soonest one, and the ticks in a row with no
// call open after which it stops.
constexpr uint64_t kTickNs = 1000000, kMaxTickNs = 50000000, kMinTickNs = 50000;
constexpr uint32_t kIdleTicks = 4;
// Doublings of the tick's period while the thread blocks outside the
// interposed waits: 1 ms becomes 64 ms (kMaxTickNs caps it at 50).
constexpr uint32_t kMaxBackoff = 6;
// What a sample costs the thread (measured on our VM: the signal's round
// trip ~4 us, ~0.4 us a frame unwound), and at most 1/20 of its time goes
// to them. From the frames, not the clock: a sample the thread was
// preempted in would stretch the period for nothing.
constexpr uint64_t kSampleBaseNs = 4000, kSampleFrameNs = 400, kCostShare = 20;
constexpr uint64_t kAgeShare = 16;     // a call is sampled 16 times per age
uint64_t PeriodTicks, TickTicks, MaxTickTicks;
// How late the first sample of a call may come (after half its threshold)
// and still stand for the call's start: the watcher's tick, and a loaded
// machine's delay in waking it.
constexpr uint64_t kLateNs = 5000000;
uint64_t LateTicks;
uint32_t Epoch; // samplerForgetSamples calls
uint64_t SamplesTaken, KicksSent; // verbosity=1's counts
uint64_t UnwindFaults;             // samples whose unwinding faulted
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

long sys(long Nr, long A = 0, long B = 0, long C = 0, long D = 0) {
  return arch::rawSyscall(Nr, A, B, C, D, 0, 0);
}

//===-- The thread's own side: handler, timer, unwinding ------------------===//

// The timer that signals this thread while a call of it is open past half
// its threshold (a raw system call: timer_create is not async-signal-safe).
bool makeTimer(ThreadState &T, SampleBuffer &B, int Sig) {
  struct sigevent Ev;
  memset(&Ev, 0, sizeof(Ev));
  Ev.sigev_notify = SIGEV_THREAD_ID;
  Ev.sigev_signo = Sig;
  Ev.sigev_value.sival_ptr = &Cookie[0];
  Ev._sigev_un._tid = pid_t(T.Tid); // sigev_notify_thread_id
  int Id = 0;
  if (sys(SYS_timer_create, CLOCK_MONOTONIC, long(&Ev), long(&Id)) != 0)
    return false;
  B.TimerId = Id;
  B.HasTimer = 1;
  return true;
}

void setTimer(SampleBuffer &B, uint64_t Ns) {
  struct itimerspec V = {};
  V.it_value.tv_sec = time_t(Ns / 1000000000);
  V.it_value.tv_nsec = long(Ns % 1000000000);
  sys(SYS_timer_settime, B.TimerId, 0, long(&V), 0);
}

void disarm(SampleBuffer &B) {
  __atomic_store_n(&B.Armed, 0, __ATOMIC_RELAXED);
  B.Live = 0;
  // The next tick compares with none before it: the time in between is a
  // wait of ours, not a block outside them nor a wait for a CPU.
  B.TickDue = B.LastTick = 0;
  B.Backoff = 0;
  if (B.HasTimer)
    setTimer(B, 0);
}

// Runs F(B) on the thread's timer unless the program took the signal
// (samplerSignalTaken deletes the timers once no handler or this is
// inside: InHandler counts them, as a handler may interrupt this).
template <typename Fn> void withTimer(SampleBuffer &B, Fn F) {
  __atomic_fetch_add(&B.InHandler, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&SampleSig, __ATOMIC_SEQ_CST) && B.HasTimer)
    F(B);
  __atomic_fetch_sub(&B.InHandler, 1, __ATOMIC_RELEASE);
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
  while (W.J >= W.Floor && Cfa > uintptr_t(W.T->Frames[W.J].Addr)) {
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
  if (!Activation)
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
    uint64_t Thr = F.Threshold ? F.Threshold : globalThresholdTicks;
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
// the next (ticks from T0).
uint64_t takeSample(ThreadState &T, SampleBuffer &B, void *Uctx,
                    const Frame *Hot, uint32_t Floor, uint64_t T0) {
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
  uint64_t Age = T0 - Hot->Start, Period = PeriodTicks;
  if (Age / kAgeShare > Period)
    Period = Age / kAgeShare;
  // The last sample's depth tells what the next will cost.
  if (B.CostTicks * kCostShare > Period)
    Period = B.CostTicks * kCostShare;
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
  S.PeriodUs = uint32_t(ticksToNs(Period) / 1000);
  S.Blocked = B.Blocked;
  S.Time = T0;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  ++B.Taken;
  ++B.Session;
  __atomic_fetch_add(&SamplesTaken, 1, __ATOMIC_RELAXED);
  B.CostTicks = nsToTicks(kSampleBaseNs + kSampleFrameNs * W.N);
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
  uint64_t Thr = Hot.Threshold ? Hot.Threshold : globalThresholdTicks;
  const spiketrap_desc *D = Hot.Desc;
  if (Thr == kNever || Now - Hot.Start < Thr ||
      (Now - Hot.Start - Hot.ChildTicks) * 2 < Thr || !D || !__spiketrap_desc_num_callees(D))
    return false;
  if (B.RearmStart == Hot.Start && B.RearmDesc == D &&
      (B.NumRearmed || Now - B.RearmAt < Thr))
    return false;
  return !runDelayExplains(T, Hot.Start, Now, Thr);
}

// A tick of this thread: samples its innermost call open past half its
// threshold when a sample is due, and says when the next tick comes, in ns
// (0: stop). A tick comes at the next sample, when a call open below the
// sampled one (for an eighth of its threshold already) passes half its
// threshold, or a period later (a call may open meanwhile), whichever is
// first.
uint64_t tick(ThreadState &T, SampleBuffer &B, void *Uctx) {
  uint64_t T0 = now();
  uint32_t Depth = T.Depth;
  if (T.Status != StatusActive || !Depth || Depth > kMaxDepth) {
    B.Live = 0;
    return ++B.IdleTicks < kIdleTicks ? ticksToNs(TickTicks) : 0;
  }
  B.IdleTicks = 0;
  // Since its last tick: the time the thread was off the CPU, and whether
  // it blocked (a voluntary switch) and ran little: it waits in a call the
  // runtime does not interpose (the C library's own reads in stdio,
  // epoll_pwait, io_uring_enter), which each tick would wake.
  uint64_t Off = 0;
  bool Blocked = false;
  {
    timespec C = {};
    struct rusage Use = {};
    sys(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, long(&C));
    sys(SYS_getrusage, RUSAGE_THREAD, long(&Use));
    uint64_t Cpu = uint64_t(C.tv_sec) * 1000000000 + uint64_t(C.tv_nsec);
    if (B.LastTick && T0 > B.LastTick && Cpu >= B.LastTickCpuNs) {
      uint64_t Wall = ticksToNs(T0 - B.LastTick), Ran = Cpu - B.LastTickCpuNs;
      Off = nsToTicks(Wall > Ran ? Wall - Ran : 0);
      Blocked = uint64_t(Use.ru_nvcsw) != B.LastTickBlocked && Ran * 8 < Wall;
    }
    B.LastTick = T0;
    B.LastTickCpuNs = Cpu;
    B.LastTickBlocked = uint64_t(Use.ru_nvcsw);
    runDelayNoteCpu(T, T0, Cpu, B.LastTickBlocked); // for a long wait
  }
  // Ticks twice as far apart at each tick that finds it so, up to the most
  // (an idle event loop inside a call open for good wakes ~20 times a
  // second, not a thousand).
  B.Blocked = Blocked;
  if (!Blocked)
    B.Backoff = 0;
  else if (B.Backoff < kMaxBackoff)
    ++B.Backoff;
  // Calls are judged as at the time the tick was due: its interrupt and
  // signal (~50 us on a VM), or a wait for a CPU, would make a call that
  // had just begun look old.
  uint64_t At = B.TickDue && B.TickDue < T0 ? B.TickDue : T0;
  uint32_t Floor = sampleFloor(T);
  const Frame *Hot = Floor < Depth ? hotFrame(T, Floor, Depth, At) : nullptr;
  // A tick an eighth of the threshold apart (a call seen open that long
  // gets a tick at its half: below), 1 to 50 ms.
  uint64_t Period = globalThresholdTicks / 8;
  Period = Period < TickTicks ? TickTicks : Period;
  Period <<= B.Backoff;
  Period = Period > MaxTickTicks ? MaxTickTicks : Period;
  uint64_t Next = T0 + Period;
  if (!Hot) {
    B.Live = 0;
  } else {
    // Hot at the last tick too: its run delay was read then, so the share
    // of time it waited for a CPU since is known (for the re-arm).
    bool WasHot = B.Live && Hot->Start == B.HotStart;
    if (!B.Live || Hot->Start != B.HotStart || T0 >= B.NextSample)
      B.NextSample = T0 + takeSample(T, B, Uctx, Hot, Floor, T0);
    Next = B.NextSample < Next ? B.NextSample : Next;
    // Its thread's wait for a CPU from now on (spiketrap_rundelay.h): read
    // once per call, as of when the tick was due (or, for a first tick, the
    // call passed half its threshold): what the thread waited for a CPU
    // since then is the call's, and the kernel has added it to the run
    // delay already. A tick comes late only for want of a CPU (a signal
    // wakes a thread that sleeps), or while the thread held the signal
    // back, running: it is at most the time off the CPU.
    uint64_t Thr = Hot->Threshold ? Hot->Threshold : globalThresholdTicks;
    uint64_t Ref =
        B.TickDue && B.TickDue < T0 ? B.TickDue : Hot->Start + Thr / 2;
    uint64_t Waited = T0 > Ref ? T0 - Ref : 0;
    runDelayWatchSelf(T, Hot->Start, T0, Waited < Off ? Waited : Off);
    if (WasHot && Hot == &T.Frames[Depth - 1] && rearmDue(T, B, *Hot, At))
      rearm(B, Hot->Desc, Hot->Start, At);
  }
  for (uint32_t J = Hot ? uint32_t(Hot - T.Frames) + 1 : Floor; J < Depth;
       ++J) {
    const Frame &F = T.Frames[J];
    uint64_t Thr = F.Threshold ? F.Threshold : globalThresholdTicks;
    if (uintptr_t(F.Addr) == kUnderConstruction || Thr == kNever)
      continue;
    // Only for a call open an eighth of its threshold already (as the
    // watcher's findHotCall): a loop of short calls would have the ticks
    // chase each one.
    uint64_t Half = F.Start + Thr / 2;
    if (Half > At && Half < Next && At >= F.Start && (At - F.Start) * 8 >= Thr)
      Next = Half;
  }
  uint64_t Ns = ticksToNs(Next > T0 ? Next - T0 : 0);
  return Ns > kMinTickNs ? Ns : kMinTickNs;
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
  if (!Info || (Info->si_value.sival_ptr != &Cookie[0] &&
                Info->si_value.sival_ptr != &Cookie[1]))
    return; // the program's own, sent with no handler of its own
  ThreadState &T = threadState;
  SampleBuffer *B = T.Samples;
  if (!B)
    return;
  int Saved = errno;
  __atomic_store_n(&B->Ticks, B->Ticks + 1, __ATOMIC_RELAXED);
  bool Room = roomOnAltStack(T, uintptr_t(__builtin_frame_address(0)), 0);
  if (Info->si_code == SI_QUEUE && Info->si_value.sival_ptr == &Cookie[0])
    __atomic_store_n(&B->KicksSeen, B->KicksSeen + 1, __ATOMIC_RELAXED);
  // Against samplerSignalTaken: it clears SampleSig, then waits for
  // InHandler; we count InHandler, then read SampleSig. Once the signal is
  // given up, its timers are samplerSignalTaken's to delete: hands off.
  __atomic_fetch_add(&B->InHandler, 1, __ATOMIC_SEQ_CST);
  if (Sig == __atomic_load_n(&SampleSig, __ATOMIC_SEQ_CST)) {
    // Not in a wait (it restarts; the wait is timed as such): the ticks stop
    // at the second in a row that lands in one (a write that took a while
    // is not a thread blocked for long) until it ends. No ticks for a thread
    // about to take signals synchronously.
    uint64_t Next = 0;
    if (T.WaitsForSignals)
      Next = 0;
    else if (!Room) // not even a tick's bookkeeping: the next may have room
      Next = kTickNs, __atomic_fetch_add(&StackSkips, 1, __ATOMIC_RELAXED);
    else if (!T.InWait)
      Next = tick(T, *B, Uctx), B->WaitTicks = 0;
    else if (++B->WaitTicks < 2)
      Next = kTickNs;
    if (!Next) {
      disarm(*B);
    } else if (B->HasTimer || makeTimer(T, *B, Sig)) {
      __atomic_store_n(&B->Armed, 1, __ATOMIC_RELAXED);
      B->TickDue = now() + nsToTicks(Next);
      setTimer(*B, Next);
    }
  }
  __atomic_fetch_sub(&B->InHandler, 1, __ATOMIC_RELEASE);
  errno = Saved;
}

// Queues our signal Sig, carrying Cookie, to thread Tid of this process.
long queueSignal(uint32_t Tid, int Sig, char *Cookie) {
  siginfo_t Info;
  memset(&Info, 0, sizeof(Info));
  Info.si_signo = Sig;
  Info.si_code = SI_QUEUE;
  Info.si_pid = int(Pid);
  Info.si_uid = Uid;
  Info.si_value.sival_ptr = Cookie;
  return sys(SYS_rt_tgsigqueueinfo, Pid, Tid, Sig, long(&Info));
}

// Starts the ticks of this thread: a signal to itself, whose handler makes
// the timer (Cookie[1]: not one of the watcher's counted kicks). Not for a
// thread that blocks the signal: it may be waiting for it with sigwait.
void startTicks(ThreadState &T, int Sig) {
  uint64_t Set = 1ull << (Sig - 1), Old = 0;
  if (sys(SYS_rt_sigprocmask, SIG_BLOCK, 0, long(&Old), sizeof(Old)) != 0 ||
      (Old & Set))
    return;
  queueSignal(T.Tid, Sig, &Cookie[1]);
}

_Unwind_Reason_Code countFrames(_Unwind_Context *, void *P) {
  ++*static_cast<int *>(P);
  return _URC_NO_REASON;
}

//===-- The watcher's side: buffers, kicks -------------------------------===//

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

// Whether thread Tid blocks Sig (its SigBlk in /proc): a thread that does
// may be waiting for it with sigwait, which must never see ours. 1: it
// does, 0: it does not, -1: not known now (while a thread waits in
// sigtimedwait its mask shows the signals it waits for unblocked: only a
// running thread's is its own).
int blocks(uint32_t Tid, int Sig) {
  Buffer Path;
  Path.format("/proc/self/task/{}/status", Tid);
  Path.push_back('\0');
  int Fd = open(Path.data(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return 1;
  char Text[4096];
  ssize_t N = read(Fd, Text, sizeof(Text) - 1);
  close(Fd);
  if (N <= 0)
    return 1;
  Text[N] = 0;
  const char *State = strstr(Text, "State:");
  const char *P = strstr(Text, "SigBlk:");
  if (!State || !P)
    return 1;
  State += strspn(State + 6, " \t") + 6;
  if (*State != 'R')
    return -1;
  unsigned long long Mask = strtoull(P + 7, nullptr, 16);
  return (Mask >> (Sig - 1)) & 1;
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
  Pid = uint32_t(getpid());
  Uid = uint32_t(getuid());
  // The kernel's minimum for a signal frame (with AVX-512 ~3.4 KiB; 0 on
  // kernels before 5.14: 2 KiB is the old MINSIGSTKSZ), and its alignment.
  FrameNeed = uintptr_t(getauxval(AT_MINSIGSTKSZ));
  FrameNeed = (FrameNeed > 2048 ? FrameNeed : 2048) + 1024;
  PeriodTicks = nsToTicks(kPeriodNs);
  TickTicks = nsToTicks(kTickNs);
  MaxTickTicks = nsToTicks(kMaxTickNs);
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
    uint64_t Thr = SPIKETRAP_RACY(F.Threshold);
    Thr = Thr ? Thr : globalThresholdTicks;
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
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Sig || Waiting || SPIKETRAP_RACY(T.WaitsForSignals) ||
      SPIKETRAP_RACY(T.Status) != StatusActive || !SPIKETRAP_RACY(T.Depth))
    return;
  SampleBuffer *B = T.Samples;
  if (!B) {
    if ((B = takeFree())) {
      B->MaskTid = 0;
      __atomic_store_n(&T.Samples, B, __ATOMIC_RELEASE);
    } else {
      ++Wanted;
      return;
    }
  }
  // Ticking itself already, or our last signal not seen yet (the thread
  // blocks it now, or has not run since).
  if (__atomic_load_n(&B->Armed, __ATOMIC_RELAXED) ||
      __atomic_load_n(&B->KicksSeen, __ATOMIC_RELAXED) != B->Kicks)
    return;
  // Its signal mask, read once a second at most (a few tens of us, here
  // under the registry lock: the first signal must not wait another tick).
  if (B->MaskTid != T.Tid || Now - B->MaskAt > theClock.TicksPerSecond) {
    int Blocks = blocks(T.Tid, Sig);
    if (Blocks < 0)
      return; // not known now: at the next look
    B->MaskOk = !Blocks;
    B->MaskAt = Now;
    B->MaskTid = T.Tid;
  }
  if (!B->MaskOk)
    return;
  // Count the signal, then look at InWait (against samplerPauseForWait): a
  // wait that began meanwhile holds it back, and none has begun since.
  __atomic_store_n(&B->Kicks, B->Kicks + 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&T.InWait, __ATOMIC_SEQ_CST) ||
      queueSignal(T.Tid, Sig, &Cookie[0]) != 0)
    __atomic_store_n(&B->Kicks, B->Kicks - 1, __ATOMIC_RELAXED);
  else
    ++KicksSent;
  return;
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

void samplerDetach(ThreadState &T) {
  SampleBuffer *B = T.Samples;
  if (!B)
    return;
  __atomic_store_n(&T.Samples, nullptr, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (__atomic_exchange_n(&B->HasTimer, 0, __ATOMIC_ACQ_REL))
    sys(SYS_timer_delete, B->TimerId);
  // Kicks and their count travel with the buffer: a kick still queued for
  // this thread dies with it.
  B->HasTimer = B->Armed = B->Reading = B->Live = B->IdleTicks = 0;
  B->HotStart = B->NextSample = B->TickDue = B->LastTick = 0;
  B->Backoff = B->Blocked = 0;
  B->KicksSeen = B->Kicks;
  B->Taken = B->Session = 0;
  B->MaskTid = 0;
  for (Sample &S : B->Slots) // the next thread's spikes must not see them
    S.Frames = 0;
  giveBack(B);
}

void samplerAfterForkChild() {
  Pid = uint32_t(getpid());
  // Timers are not inherited; the other threads' buffers are lost.
  if (SampleBuffer *B = threadState.Samples) {
    B->HasTimer = B->Armed = B->Live = 0;
    B->KicksSeen = B->Kicks;
    B->MaskTid = 0;
  }
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
  uint32_t N = __atomic_load_n(&Allocated, __ATOMIC_ACQUIRE);
  uint64_t Ticks = 0; // a buffer keeps its count from thread to thread
  for (uint32_t I = 0; I < N; ++I)
    Ticks += __atomic_load_n(&AllBuffers[I]->Ticks, __ATOMIC_RELAXED);
  return {__atomic_load_n(&SamplesTaken, __ATOMIC_RELAXED), KicksSent, N,
          Ticks, __atomic_load_n(&UnwindFaults, __ATOMIC_RELAXED),
          __atomic_load_n(&StackSkips, __ATOMIC_RELAXED)};
}

void samplerHandlerOnAltStack(const ThreadState &T, uintptr_t Sp) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_RELAXED);
  if (!Sig || roomOnAltStack(T, Sp, FrameNeed))
    return;
  // Held back until the handler returns (its sigreturn restores the mask).
  uint64_t Set = 1ull << (Sig - 1);
  sys(SYS_rt_sigprocmask, SIG_BLOCK, long(&Set), 0, sizeof(Set));
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

int samplerPauseForWait(ThreadState &T, bool Stop, bool Disarm) {
  SampleBuffer *B = T.Samples;
  if (!B)
    return 0;
  B->Live = 0; // the samples after it are of another run
  if (!Stop)
    return 0;
  bool Armed = __atomic_load_n(&B->Armed, __ATOMIC_RELAXED);
  if (Disarm) {
    if (Armed)
      withTimer(*B, disarm);
    Armed = false;
  } else if (Armed) {
    // The timer runs on, its tick held back: the next tick compares with
    // none before it (the time in between is a wait of ours, not a block
    // outside them nor a wait for a CPU), as after a stopped timer.
    B->LastTick = 0;
    B->Backoff = 0;
  }
  // The watcher counts its signal, then reads InWait; we counted InWait,
  // now read its count: one of us sees the other. A signal it sends now
  // waits for the end of the wait, so the wait sees no EINTR.
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_RELAXED);
  if (!Sig || (!Armed && __atomic_load_n(&B->Kicks, __ATOMIC_SEQ_CST) ==
                             __atomic_load_n(&B->KicksSeen, __ATOMIC_RELAXED)))
    return 0;
  // Two rt_sigprocmask calls (~0.5 us each on our VM) instead of stopping and
  // restarting the timer (timer_settime: ~3 us each, the timer's hardware
  // reprogrammed): an event loop's wait that returns at once pays that at
  // every turn. A tick that falls due meanwhile stays pending: it wakes no
  // one (the timer is one-shot: an idle thread is not woken again).
  uint64_t Set = 1ull << (Sig - 1), Old = 0;
  sys(SYS_rt_sigprocmask, SIG_BLOCK, long(&Set), long(&Old), sizeof(Set));
  // Blocked already (by the program, or by the wait a signal handler that
  // waits now interrupted): as is.
  return Old & Set ? 0 : Sig;
}

void samplerTickAfterWait(ThreadState &T) {
  SampleBuffer *B = T.Samples;
  if (__atomic_load_n(&B->Armed, __ATOMIC_RELAXED) || T.WaitsForSignals)
    return;
  withTimer(*B, [](SampleBuffer &B) {
    __atomic_store_n(&B.Armed, 1, __ATOMIC_RELAXED);
    B.TickDue = now() + TickTicks;
    setTimer(B, kTickNs);
  });
}

void samplerThreadStarts(ThreadState &T) {
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!Sig || T.Samples || T.WaitsForSignals)
    return;
  SampleBuffer *B = takeFree();
  if (!B)
    return; // the watcher's next look finds one
  B->MaskTid = 0;
  __atomic_store_n(&T.Samples, B, __ATOMIC_RELEASE);
  startTicks(T, Sig);
}

void samplerResumeAfterWait(int Sig) {
  uint64_t Set = 1ull << (Sig - 1);
  ThreadState &T = threadState;
  SampleBuffer *B = T.Samples;
  // A wait that outlasted the timer: its tick is pending. Taken here, and
  // the timer restarted a period from now, as a stopped timer was: a tick
  // handled at the wait's end would sample the waiting caller and time the
  // next call from there. (A wait that returns sooner pays nothing.)
  if (B && __atomic_load_n(&B->Armed, __ATOMIC_RELAXED) &&
      __atomic_load_n(&SampleSig, __ATOMIC_RELAXED) == Sig &&
      now() >= B->TickDue) {
    siginfo_t Info;
    timespec Zero = {0, 0};
    // One: the one-shot timer queues one tick (anything else pending comes
    // after the unblocking, to the handler).
    if (sys(SYS_rt_sigtimedwait, long(&Set), long(&Info), long(&Zero),
            sizeof(Set)) == Sig &&
        Info.si_code == SI_QUEUE && Info.si_value.sival_ptr == &Cookie[0])
      __atomic_store_n(&B->KicksSeen, B->KicksSeen + 1, __ATOMIC_RELAXED);
    if (!T.InWait && !T.WaitsForSignals)
      withTimer(*B, [](SampleBuffer &B) {
        B.TickDue = now() + TickTicks;
        setTimer(B, kTickNs);
      });
    else // an outer wait's end starts it (samplerTickAfterWait)
      __atomic_store_n(&B->Armed, 0, __ATOMIC_RELAXED);
  }
  sys(SYS_rt_sigprocmask, SIG_UNBLOCK, long(&Set), 0, sizeof(Set));
}

bool samplerBeforeExec() {
  ThreadState &T = threadState;
  SampleBuffer *B = T.Samples;
  int Sig = __atomic_load_n(&SampleSig, __ATOMIC_ACQUIRE);
  if (!B || !Sig || T.Status != StatusActive ||
      uint32_t(sys(SYS_getpid)) != Pid)
    return false;
  // Against the watcher's look, as for a wait: it sends no more.
  __atomic_fetch_add(&T.InWait, 1, __ATOMIC_SEQ_CST);
  // One it sent already arrives at the next system call's end (the handler
  // counts it seen), or, blocked by the program, is taken here.
  uint64_t Set = 1ull << (Sig - 1);
  timespec Zero = {0, 0};
  uint64_t Until = now() + nsToTicks(100000000);
  while (__atomic_load_n(&B->KicksSeen, __ATOMIC_RELAXED) !=
             __atomic_load_n(&B->Kicks, __ATOMIC_SEQ_CST) &&
         now() < Until)
    if (sys(SYS_rt_sigtimedwait, long(&Set), 0, long(&Zero), sizeof(Set)) !=
        Sig)
      sys(SYS_sched_yield);
  B->KicksSeen = B->Kicks;
  // A tick the timer queued before it went is handled at this call's end;
  // the handler re-arms only a timer that exists.
  if (__atomic_exchange_n(&B->HasTimer, 0, __ATOMIC_ACQ_REL))
    sys(SYS_timer_delete, B->TimerId);
  disarm(*B);
  // ... or, blocked, taken now.
  while (sys(SYS_rt_sigtimedwait, long(&Set), 0, long(&Zero), sizeof(Set)) ==
         Sig) {
  }
  return true;
}

void samplerAfterFailedExec() {
  // The watcher's next look starts the ticks again.
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
// buffer B: its timer goes (a signal it had pending goes with it), and a
// queued signal is waited for.
void stopBuffer(SampleBuffer &B) {
  unsigned Spins = 0;
  uint64_t Until = now() + nsToTicks(10000000);
  while ((__atomic_load_n(&B.KicksSeen, __ATOMIC_RELAXED) !=
              __atomic_load_n(&B.Kicks, __ATOMIC_RELAXED) ||
          __atomic_load_n(&B.InHandler, __ATOMIC_SEQ_CST)) &&
         now() < Until)
    backOff(Spins);
  if (__atomic_exchange_n(&B.HasTimer, 0, __ATOMIC_ACQ_REL))
    sys(SYS_timer_delete, B.TimerId);
  __atomic_store_n(&B.Armed, 0, __ATOMIC_RELAXED);
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

//===-- The culprit, when a spike is recorded -----------------------------===//

namespace {
bool inVdso(uintptr_t Fn) { return Fn >= VdsoLo && Fn < VdsoHi; }

// Samples that must agree: two in a row by chance are easy to get from a
// call a preemption stretched (the samples after it resumes land wherever
// its last microseconds run).
constexpr uint32_t kMinAgree = 3;
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
  uint64_t Thr = K.Threshold ? K.Threshold : globalThresholdTicks;
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
