//===- spiketrap_sampler.h - Samples of a call that runs long ---*- C++ -*-===//
//
// A timed call says how long it took, not where its time went when that was
// in code that is not timed: a function adaptive mode switched off, a
// library built without the plugin, a virtual call, a recursion below its
// outermost call. So while a call is open past half its threshold, its
// thread is sampled: a timer of the thread's own signals it every
// millisecond while it runs (sooner when a call will pass half its
// threshold), and every ~100 us while such a call stays open. The handler
// unwinds the
// interrupted stack (the unwind tables, through _Unwind_Backtrace) up to the
// outermost timed frame and keeps the functions it passed in a buffer of the
// thread's. When the call's spike is recorded, the samples taken during it
// name the culprit: the deepest frame where most of them agree.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SAMPLER_H
#define SPIKETRAP_SAMPLER_H

#include "spiketrap.h"
#include "spiketrap_defs.h"
#include "spiketrap_record.h"

#include <signal.h>
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
  // The thread was blocked since the tick before (it switched off the CPU
  // of its own and ran for under an eighth of the time): a wait the runtime
  // does not interpose (recvmsg, io_uring_enter).
  uint32_t Blocked;
  SampleFrame F[kSampleFrames];
};

// A thread's samples and its sampling timer. The watcher allocates it (when
// the thread is first to be sampled) and frees nothing: a thread that exits
// hands it back for the next. Fields are the thread's unless marked.
struct SampleBuffer {
  // The watcher's.
  SampleBuffer *NextFree; // the free list
  uint32_t Kicks;         // signals sent to start sampling
  uint32_t MaskTid;       // the thread whose signal mask was read, 0: none
  uint64_t MaskAt;        // when (ticks)
  uint32_t MaskOk;        // it does not block the signal
  // The call whose switched-off callees the watcher timed again while it
  // ran (past its threshold, in its own code or code it calls untimed), and
  // which: recordSpike names them. RearmStart is published last.
  const spiketrap_desc *RearmDesc;
  uint64_t RearmStart;
  uint32_t NumRearmed;
  uint64_t RearmAt; // when (ticks): the watcher's own
  const spiketrap_desc *Rearmed[kMaxCandidates];
  // The thread's.
  uint32_t KicksSeen; // signals the handler saw
  uint32_t InHandler; // the handler (or a change of the timer) runs: nested
  int TimerId;        // the kernel's timer that signals this thread
  uint32_t HasTimer;
  uint32_t Armed;     // the timer will fire (read by the watcher)
  uint32_t Live;      // the last tick sampled, and no wait since
  uint32_t IdleTicks; // ticks in a row with no call open
  uint32_t WaitTicks; // ticks in a row that landed in an interposed wait
  uint64_t Ticks;     // signals handled (verbosity=1's count)
  uint64_t HotStart;  // start of the call sampled last
  uint64_t NextSample; // when its next sample is due (ticks)
  // When the timer is due (ticks; 0: a first signal), and the last tick's
  // time and the thread's CPU time then (0: none since the timer started):
  // how long a tick waited for a CPU (spiketrap_rundelay.h).
  uint64_t TickDue, LastTick, LastTickCpuNs, LastTickBlocked;
  uint32_t Blocked; // the tick found the thread blocked since the last one
  uint32_t Backoff; // doublings of the period: it blocks outside our waits
  uint32_t Reading;   // recordSpike is reading: a handler keeps out
  uint64_t CostTicks; // what the last sample cost (estimated from its depth)
  uint64_t Taken;     // samples written
  uint64_t Session;   // of them, since sampling last started (the first
                      // few stay: where a long call's culprit began)
  uint32_t Run;       // sampling started (not armed) anew
  uint64_t Dropped;   // signals that took no sample (the thread was busy...)
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
// The watcher's look at a thread (registry lock held): starts T's ticks
// when it has a call open and does not tick (a thread that found no buffer
// at its start, or stopped ticking outside timed code), unless it waits in
// an interposed call.
void samplerWatch(ThreadState &T, uint64_t Now, bool Waiting);
// For recordSpike: the callees its thread's tick timed again while level Level
// of T ran, into Out (kMaxCandidates); how many.
uint32_t samplerRearmed(const ThreadState &T, uint32_t Level,
                        const spiketrap_desc **Out);
// After a look at every thread, without the lock: buffers the look asked for.
void samplerRefill();
// A thread's exit: its timer goes, its buffer back to the watcher.
void samplerDetach(ThreadState &T);
// In a forked child: the parent's timers are gone.
void samplerAfterForkChild();
// An interposed wait begins on this thread (InWait counted): no signal must
// interrupt it. Stop: the wait may last, or fail with EINTR
// (waitFailsOnSignal): the sampling signal is blocked for it, so a tick due
// meanwhile (or a signal the watcher sent that the thread has not seen yet)
// waits for its end: the signal it blocked (0: none), which
// samplerResumeAfterWait must unblock after it (taking a tick that fell due
// and restarting the timer a period later, as after a stopped timer).
// Disarm: the call sets a signal mask of its own for the wait (ppoll & co.
// with a mask, sigsuspend), or the thread waits for signals: the timer
// stops instead. Other waits restart: the timer runs on (a tick that lands
// in one stops it then).
int samplerPauseForWait(ThreadState &T, bool Stop, bool Disarm);
void samplerResumeAfterWait(int Sig);
// After an interposed wait (InWait counted down, T.Samples set): the
// thread's ticks start again if they stopped.
void samplerTickAfterWait(ThreadState &T);
// This thread is about to replace its program (execve & co.): the new
// program starts with our signal at its default action, which ends it, so
// none may be pending then. The watcher stops signalling the thread
// (InWait counted), a signal it sent is waited for (or taken, if the thread
// blocks it), and the timer goes with any tick it queued. True when there
// was something to stop: samplerAfterFailedExec must follow if the exec
// returns. Not in a vfork child (another process on this thread's memory).
bool samplerBeforeExec();
void samplerAfterFailedExec();
// A thread registers: it takes a sample buffer and starts ticking (unless
// it blocks the signal; the watcher's look does it then, or gives it a
// buffer when none was free).
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

// verbosity=1: what sampling did, for the watcher's line at exit.
struct SamplerStats {
  uint64_t Samples, Kicks, Buffers, Ticks, UnwindFaults, StackSkips;
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

// For recordSpike, on T's own thread: the frames the samples of level
// Level (open since its start, ending at End) agree on, into Out
// (kMaxSampled); their number. Stats: how many samples, how many agree.
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

} // namespace __spiketrap

#endif // SPIKETRAP_SAMPLER_H
