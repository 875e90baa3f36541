//===- spiketrap_sampler.h - Samples of a call that runs long ---*- C++ -*-===//
//
// A timed call says how long it took, not where its time went when that was
// in code that is not timed: a function adaptive mode switched off, a
// library built without the plugin, a virtual call, a recursion below its
// outermost call. So each thread ticks on its own CPU time: a timer of the
// thread's CPU clock signals it at the scheduler's tick (every 4 ms of CPU
// at HZ=250) while it runs, never while it sleeps or waits for a CPU, and
// the kernel raises the signal on the thread's return to user mode, so it
// never interrupts a system call. A tick that finds a call open past half
// its threshold samples it, within a budget of the thread's CPU time
// measured from its CPU clock (sample_share=). The handler unwinds the
// interrupted stack (the unwind tables, through _Unwind_Backtrace) up to the
// outermost timed frame and keeps the functions it passed in a buffer of the
// thread's. When the call's spike is recorded, the samples taken during it
// name the culprit: the deepest frame where most of them agree.
//
// The tick is spiketrap_sampler.cpp; start-up, the buffers and each
// thread's timer spiketrap_sampler_setup.cpp; what a spike's samples say
// spiketrap_culprit.cpp; the timer and the signal themselves the
// platform's (the Ticks section of spiketrap_platform.h).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SAMPLER_H
#define SPIKETRAP_SAMPLER_H

#include "spiketrap.h"
#include "spiketrap_defs.h"
#include "spiketrap_record.h"

#include "spiketrap_platform.h" // sighandler_t, siginfo_t
#include <stdint.h>

namespace __spiketrap {

struct ThreadState;

// Frames kept per sample: the outermost ones, from the thread's first timed
// frame in (a recursion 50 deep below it still fits).
constexpr uint32_t kSampleFrames = 64;
// Samples kept per thread: the first kSampleHead since sampling began (where
// a culprit started) and the latest after them (where it ended). A long call
// is sampled more slowly the longer it runs (every 1/16 of its age).
constexpr uint32_t kSampleSlots = 16, kSampleHead = 4;

// One frame of a sample, outermost first.
struct SampleFrame {
  uintptr_t Fn;               // start of its function (unwind tables), else PC
  const spiketrap_desc *Desc; // the activation of a timed frame, else null
  uint64_t Start;             // that timed frame's start ticks
};
struct Sample {
  uint64_t Time;     // ticks
  uint32_t Frames;   // in F
  uint32_t Cut;      // frames past kSampleFrames were left out (innermost)
  uint32_t Epoch;    // samplerForgetSamples calls before it was taken
  uint32_t Run;      // samples of one run were taken a period apart, the
                     // thread running (not waiting) in between
  uint32_t PeriodUs; // until the next sample of its run
  // Always 0 now: a thread blocked in a wait does not tick (its CPU clock
  // stands still), so no sample finds it waiting. Kept for the record's
  // layout (SampledStats::Blocked).
  uint32_t Blocked;
  SampleFrame F[kSampleFrames];
};

// A thread's samples and its sampling timer. The watcher allocates it (when
// the thread is first to be sampled) and frees nothing: a thread that exits
// hands it back for the next. Fields are the thread's unless marked.
struct SampleBuffer {
  // The watcher's.
  SampleBuffer *NextFree; // the free list
  // The call whose switched-off callees the tick timed again while it ran
  // (past its threshold, in its own code or code it calls untimed), and
  // which: recordSpike names them. RearmStart is published last.
  const spiketrap_desc *RearmDesc;
  uint64_t RearmStart;
  uint32_t NumRearmed;
  uint64_t RearmAt; // when (ticks)
  const spiketrap_desc *Rearmed[kMaxCandidates];
  // The timer, the thread's or the watcher's to make (TimerState) and to
  // start (Armed): a change of it counts InHandler, against
  // samplerSignalTaken, which deletes it.
  uint32_t InHandler;
  int TimerId;
  uint32_t HasTimer; // 0: none, 1: being made, 2: made
  uint32_t Armed;    // it runs (the tick stops it when no call is open)
  uint64_t PeriodNs; // its interval, in CPU time
  // The thread's.
  uint32_t Live;       // the last tick sampled, and the thread ran since
  uint32_t IdleTicks;  // ticks in a row with no call open
  uint64_t Ticks;      // signals handled (verbosity=1's count)
  uint64_t HotStart;   // start of the call sampled last
  uint64_t NextSample; // when its next sample is due (ticks)
  // The last tick's time, the thread's CPU time then (0: none since the
  // timer started) and its voluntary context switches (when hot).
  uint64_t LastTick, LastTickCpuNs, LastTickBlocked;
  uint64_t TickCpuNs; // the CPU time between ticks lately
  // The budget (sample_share=): CPU time the thread has earned for ticks
  // and samples minus what they cost it, measured (ns); what a tick and a
  // sample cost lately (the tick's signal, calibrated at start-up, and the
  // handler's run, from the thread's CPU clock).
  int64_t CreditNs;
  uint64_t TickCostNs, SampleCostNs;
  uint64_t SpentNs, SeenCpuNs;      // in all (verbosity=1)
  uint64_t SampledNs, SampledTicks; // of them, the ticks that sampled
  // The last ticks' start and cost (ticks): their time in a call is the
  // runtime's, not the call's (samplerTicksIn).
  uint64_t CostAt[32];
  uint32_t CostTicks[32];
  uint32_t CostNext;
  uint32_t Reading;    // recordSpike is reading: a handler keeps out
  uint64_t Taken;      // samples written
  uint64_t Session;    // of them, since sampling last started (the first
                       // few stay: where a long call's culprit began)
  uint32_t Run;        // sampling started (not armed) anew
  uint64_t Dropped;    // ticks due a sample that took none (the thread was
                       // busy in the runtime, the walk failed)
  uint64_t OverBudget; // ticks due a sample that the budget held back
  Sample Slots[kSampleSlots];
};

// SampledFrames a record holds at most.
constexpr uint32_t kMaxSampled = kSampleFrames;

// Start-up: chooses the signal, primes the unwinder. False: no sampling.
bool samplerInit();
// What the watcher looks for in a thread without sampling (registry lock
// held), for its run delay: its
// innermost call open past half its threshold (Start; 0: none) with the
// thread's depth then, and when a call open a while already will pass half
// its threshold (Next; UINT64_MAX: none; a call just opened is seen at the
// next tick).
struct HotCall {
  uint32_t Depth;
  uint64_t Start, Next;
};
HotCall findHotCall(ThreadState &T, uint64_t Now);
// The watcher's look at a thread (registry lock held): gives T a buffer
// and a timer when it has a call open and none (a thread that found no
// buffer at its start, a forked child), and starts its timer when the
// thread stopped it (no call open for a few ticks). No signal is sent.
void samplerWatch(ThreadState &T, uint64_t Now, bool Waiting);
// T's timer ran and T ticked within two of its periods before Now: its
// next tick reads its run delay itself, so the watcher need not. False
// where the looks are the ticks (kTicksByWatcher), and for a thread off
// the CPU (its CPU-time timer stands still: then the watcher reads).
bool samplerTicksItself(const ThreadState &T, uint64_t Now);
// For recordSpike (spiketrap_culprit.cpp): the callees its thread's tick
// timed again while level Level of T ran, into Out (kMaxCandidates); how
// many.
uint32_t samplerRearmed(const ThreadState &T, uint32_t Level,
                        const spiketrap_desc **Out);
// After a look at every thread, without the lock: buffers the look asked for.
void samplerRefill();
// A thread's exit: its timer goes, its buffer back to the watcher.
void samplerDetach(ThreadState &T);
// In a forked child: the parent's timers are gone.
void samplerAfterForkChild();
// This thread is about to replace its program (execve & co.): the new
// program starts with our signal at its default action, which ends it, so
// none may be pending then (the program may block it with a raw system
// call). The timer goes, and a tick it queued is taken. True when there
// was something to stop: samplerAfterFailedExec must follow if the exec
// returns. Not in a vfork child (another process on this thread's memory).
bool samplerBeforeExec();
void samplerAfterFailedExec();
// A thread registers: it takes a sample buffer and makes its timer, on
// its own CPU clock (the watcher's look does it when no buffer was free).
void samplerThreadStarts(ThreadState &T);

// A shared object is about to be unloaded: samples taken so far may name
// its code and descriptors, so spikes recorded from now on ignore them.
void samplerForgetSamples();

// Whether Sig is the sampling signal and A or H our handler for it (the
// program sees the default action there).
bool samplerHandlerIs(const struct sigaction &A);
bool samplerHandlerIs(sighandler_t H);
// The program installs an action for Sig: if it is ours, sampling moves to
// another signal first (or stops), so the program's action is its own.
void samplerSignalTaken(int Sig);
// The same without a line: the program is about to sandbox itself.
void samplerStopForRun();

// verbosity=1: what sampling did, for the watcher's line at exit.
struct SamplerStats {
  uint64_t Samples, Buffers, Ticks, UnwindFaults, OverBudget, StackSkips;
  uint64_t SpentNs, CpuNs; // what ticks and samples cost, of the CPU seen
  uint64_t SampledNs, SampledTicks; // of them, ticks that took a sample
  uint64_t SignalNs;                // a signal's round trip, calibrated
};
SamplerStats samplerStats();

// A program's handler starts on T's alternate stack, at Sp (the
// trampoline, after recording its SignalContext): where that stack has no
// room for our signal's frame and a tick, the signal is held back until the
// handler returns.
void samplerHandlerOnAltStack(const ThreadState &T, uintptr_t Sp);

// From the handler of SIGSEGV or SIGBUS (the program's, through our
// trampoline, or the crash report's), first: if this thread faulted while
// unwinding a sample (wrong unwind tables), goes back to the sample, which
// is dropped; else returns.
void samplerFaultGuard(int Sig);

// On T's own thread, when a call from Start to End is found over its
// threshold: the time the sampler's ticks took in it (ticks; the last 32
// ticks are known), which is not the call's. Async-signal-safe.
uint64_t samplerTicksIn(const ThreadState &T, uint64_t Start, uint64_t End);

// For recordSpike (spiketrap_culprit.cpp), on T's own thread: the frames
// the samples of level Level (open since its start, ending at End) agree
// on, into Out (kMaxSampled); their number. Stats: how many samples, how
// many agree.
uint32_t sampledChain(ThreadState &T, uint32_t Level, uint64_t End,
                      SampledFrame *Out, SampledStats &Stats);

// For recordSpike, on T's own thread, while the call of level Level is on
// the stack still (its exit hook runs): Out[0, N) is sampledChain's; the
// frames above the call (between the thread's timed levels) become those
// unwound from here, so none is lost when no sample saw it. The culprit
// chain after them stays. Their number (N when the walk did not reach the
// thread's first timed frame). Not for a frame left by an exception.
uint32_t framesAbove(ThreadState &T, uint32_t Level, SampledFrame *Out,
                     uint32_t N);

//===-- Between the sampler's files ---------------------------------------===//
//
// spiketrap_sampler.cpp (the tick), its platform's file (who delivers it,
// the walk: spiketrap_sampler_posix.cpp, spiketrap_sampler_win.cpp),
// spiketrap_sampler_setup.cpp (start-up, the buffers, a thread's timer) and
// spiketrap_culprit.cpp (what a spike's record says) share these; no other
// file uses them.
namespace sampler_impl {

// The sampling signal; 0: none (sampling off, or given up to the program).
extern int SampleSig;
// The budget: sample_share percent of the thread's CPU time, earned at
// each tick, at most this much of it saved up (a call that gets hot after
// a quiet while has its first samples at once).
constexpr uint64_t kCreditCapNs = 2000000;
extern uint64_t ShareMilli; // sample_share, in thousandths
// How late the first sample of a call may come (after half its threshold)
// and still stand for the call's start (spiketrap_culprit.cpp): a tick's
// interval of CPU time (4 ms at HZ=250), and a loaded machine's share of it.
constexpr uint64_t kLateNs = 8000000;
extern uint64_t LateTicks;
// What the kernel's part of a tick costs the thread (the signal's delivery
// and return, and one CPU clock reading), measured at start-up.
extern uint64_t SignalNs;
extern uint32_t Epoch;        // samplerForgetSamples calls
extern uint64_t SamplesTaken; // verbosity=1's count
extern uint64_t UnwindFaults; // samples whose unwinding faulted
extern uint64_t StackSkips;   // ticks skipped for want of room on an
                              // alternate stack
extern uintptr_t FrameNeed;   // a signal frame on this CPU
// The vDSO's code (clock_gettime, gettimeofday, time, getcpu): calls that
// take tens of nanoseconds each (spiketrap_culprit.cpp).
extern uintptr_t VdsoLo, VdsoHi;
// The unwinder is set up and takes no lock (glibc 2.35 on): a spike's exit
// may walk its own stack (framesAbove).
extern bool UnwindReady;

// The sampling signal's handler (spiketrap_sampler_posix.cpp).
void handler(int Sig, siginfo_t *Info, void *Uctx);
// A tick of T, interrupted at context Uctx (a signal's ucontext_t, a
// suspended thread's CONTEXT), at CpuNs of T's CPU time: samples T's
// innermost call open past half its threshold when a sample is due and the
// budget has room for it, times a long call's switched-off callees again;
// says whether it sampled. No call open for a few ticks in a row: the timer
// stops (the watcher's look starts it again). T does not run meanwhile.
bool tick(ThreadState &T, SampleBuffer &B, void *Uctx, uint64_t CpuNs);
// What the tick at TickAt cost T's thread (ns, measured): out of its
// budget and of the calls it landed in; it sets the timer's interval.
void tickCost(SampleBuffer &B, bool Sampled, uint64_t TickAt, uint64_t Cost);
// The unwinder's one-time set-up (its lazy bindings, the functions a walk
// must not step out of), outside a handler; then UnwindReady.
void primeUnwinder();
// Before a tick the watcher delivers (kTicksByWatcher), outside any: the
// walk's tables brought up to date (modules loaded since).
void walkPrepare();

// Starts B's timer with interval Ns (0: stops it).
void setTimer(SampleBuffer &B, uint64_t Ns);
// The interval B's timer is to have now.
uint64_t wantedPeriod(const SampleBuffer &B);
// Runs F(B) on the thread's timer unless the program took the signal
// (samplerSignalTaken deletes the timers once no handler or this is
// inside: InHandler counts them, as a handler may interrupt this).
template <typename Fn> void withTimer(SampleBuffer &B, Fn F) {
  __atomic_fetch_add(&B.InHandler, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&SampleSig, __ATOMIC_SEQ_CST))
    F(B);
  __atomic_fetch_sub(&B.InHandler, 1, __ATOMIC_RELEASE);
}

// The first level a sample of T reaches: the innermost live handler's floor
// (a signal handler of the program samples only its own frames).
uint32_t sampleFloor(const ThreadState &T);
// Whether there are Extra bytes and a tick's worth of room below Sp, on
// T's innermost program handler's alternate stack if Sp is on it (anywhere
// else: the thread's own stack, which is not ours to judge).
bool roomOnAltStack(const ThreadState &T, uintptr_t Sp, uintptr_t Extra);

// One unwinding: from the interrupted frame out to the activation of level
// Floor, the innermost frames first, kept in a ring of the last (outermost)
// kSampleFrames. libgcc hands each callback the frame's PC and function but
// the CFA of the frame inside it: a frame is written at the next callback,
// which knows its CFA.
struct Walk {
  const ThreadState *T;
  Sample *S;
  void *Ctx;        // the interrupted context (null: from the walk's
                    // caller out)
  uintptr_t Pc;     // where it interrupted the thread (the walker's; 0:
                    // null Ctx)
  bool Found;       // the interrupted frame was reached (the handler's are
                    // before it)
  bool Broken;      // given up: an unsafe place, or frames that make no sense
  uintptr_t Cfa;    // the last frame's
  uint32_t Before;  // frames before it
  int32_t J, Floor; // the next timed level to meet, innermost first
  uint32_t N;       // frames written (may pass kSampleFrames)
  uintptr_t Fn;     // the frame waiting for its CFA (0: none)

  // Into S, from Ctx out to T's level Floor, meeting level Level first.
  static Walk from(const ThreadState &T, Sample &S, void *Ctx, uint32_t Level,
                   uint32_t Floor) {
    return {&T, &S, Ctx, 0, false, false, 0, 0, int32_t(Level),
            int32_t(Floor), 0, 0};
  }
};
// The walkers' common steps: writes a frame; writes the frame waiting for
// its CFA (W.Fn), whose CFA is Cfa: the activation of timed level J if it
// holds that level's return-address slot (or a scope's local); frames
// inside it lie below. Returns whether the walk is done.
void walkPut(Walk &W, uintptr_t Fn, const spiketrap_desc *D, uint64_t Start);
bool walkFlush(Walk &W, uintptr_t Cfa);
// Unwinds W.Ctx's stack (null: this thread's, from the caller) into W. Unwind tables are not always right at
// every instruction (hand-written assembly in a library): the unwinder then
// reads a return address or a register from where the tables point, and a
// wrong one faults. The fault comes back here (samplerFaultGuard): W is
// Broken.
void walkStack(Walk &W);

} // namespace sampler_impl

} // namespace __spiketrap

#endif // SPIKETRAP_SAMPLER_H
