//===- spiketrap_hooks.cpp - __spiketrap_enter / __spiketrap_exit ---------===//
//
// The hot path: paid on every instrumented call. One TLS access, one clock
// read, a push or a pop, one compare. No allocation, no lock, no formatting,
// no system call; everything rare (first call of a thread, a spike, frames
// left behind by longjmp or an exception) is a call to a cold helper.
//
// Order matters for signal handlers, which may run instrumented code between
// any two instructions here. A frame is covered by Depth as soon as it has
// its descriptor, with an address no handler frame can be above, so a
// handler neither overwrites it nor takes it for dead; its real address is
// stored last. A frame stays covered until its spike is recorded.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_hooks.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_capture.h"
#include "spiketrap_channels.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_patch.h"
#include "spiketrap_recent.h"
#include "spiketrap_registry.h"
#include "spiketrap_runlist.h"
#include "spiketrap_sampler.h"
#include "spiketrap_signal.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"

#include <atomic>

using namespace __spiketrap;

namespace {

// The low 16 bits of D's flags, what the entry hook acts on: one 16-bit
// load (a 32-bit one and a zero-extension otherwise). Constant.
typedef uint16_t __attribute__((may_alias)) FlagsLowBits;
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "flagsLow reads the low half of flags at its address");
SPIKETRAP_ALWAYS_INLINE uint16_t flagsLow(const spiketrap_desc *D) {
  return *reinterpret_cast<const FlagsLowBits *>(&D->flags);
}

// The state's off switch and the run-time lists' flags, as one word: one
// load for both (relaxed, as adaptive mode and runListApply store them).
typedef uint64_t __attribute__((may_alias)) OffAndRunFlags;
SPIKETRAP_ALWAYS_INLINE uint64_t offOrListed(const spiketrap_state *S) {
  return __atomic_load_n(reinterpret_cast<const OffAndRunFlags *>(&S->off),
                         __ATOMIC_RELAXED);
}

// What a descriptor's flags (the pass's, and the run-time lists' verdict)
// say of a frame just pushed: its threshold, and whether its callees are
// ignored.
void applyListed(Frame &F, uint32_t Flags) {
  if (Flags & SPIKETRAP_DESC_LISTED)
    F.Threshold = runListThresholdTicks(Flags);
  if (Flags & SPIKETRAP_DESC_IGNORE)
    F.Threshold = kNever;
  if (Flags & SPIKETRAP_DESC_IGNORE_CHILDREN)
    F.ChildThreshold = kNever;
}

// A call's time is its caller's time in callees (for self time in reports).
SPIKETRAP_ALWAYS_INLINE void chargeParent(ThreadState &T, uint32_t Depth,
                                          uint64_t Ticks) {
  if (Depth > 1)
    T.Frames[Depth - 2].ChildTicks += Ticks;
}

// A frame's time to End. A signal handler's time taken out of it (its start
// moved later) after End was read may put End before its start: then none.
SPIKETRAP_ALWAYS_INLINE uint64_t sinceStart(const Frame &F, uint64_t End) {
  return End > F.Start ? End - F.Start : 0;
}

// The frame at Depth - 1 was left without an exit hook (a longjmp, or an
// exception through a patchable site or uninstrumented code): a call that
// had run over its threshold by Now is a spike all the same.
void closeDeadFrame(ThreadState &T, uint32_t Depth, uint64_t Now) {
  payOwedShift(T, Depth);
  const Frame &F = T.Frames[Depth - 1];
  uint64_t Dur = sinceStart(F, Now);
  if (Dur > resolvedThreshold(F.Threshold))
    captureSpike(T, Depth, Now, SpikeFrom::Unwound);
  chargeParent(T, Depth, Dur);
}

// Handlers left by siglongjmp (their contexts judged by Addr, an activation
// running now): their frames are closed first, while their contexts still
// mark their spikes as run in a handler; signalFloor then drops the
// contexts. Returns the new depth.
uint32_t closeLeftHandlers(ThreadState &T, uint32_t Depth, uintptr_t Addr,
                           uint64_t Now) {
  for (uint32_t N = T.NumSignals;
       N && Depth <= kMaxDepth && !signalContextLive(T.Signals[N - 1], Addr);
       --N)
    for (; Depth > T.Signals[N - 1].Floor; --Depth)
      closeDeadFrame(T, Depth, Now);
  return Depth;
}

// A frame on top whose activation lies at or below ours has been left
// without an exit hook: close it, but never a frame of code a signal
// handler interrupted. Returns the new depth.
SPIKETRAP_NOINLINE uint32_t dropDeadFrames(ThreadState &T, uint32_t Depth,
                                           uintptr_t Addr) {
  if (T.NumSignals)
    Depth = closeLeftHandlers(T, Depth, Addr, now());
  uint32_t Floor = signalFloor(T, Addr);
  uint64_t Now = now();
  for (; Depth > Floor && uintptr_t(T.Frames[Depth - 1].Addr) <= Addr; --Depth)
    closeDeadFrame(T, Depth, Now);
  T.Depth = Depth;
  return Depth;
}

// Calls past the capacity have no frame; only the first one's activation is
// kept. A hook whose activation lies above it (at it, for an entry) finds
// them all left without an exit (longjmp, an exception): the depth goes back
// to the capacity and they are counted as lost. Not in a handler that
// interrupted them (its floor is past the capacity): its frames may lie
// anywhere, on an alternate stack. Returns the new depth.
SPIKETRAP_NOINLINE uint32_t dropOverflow(ThreadState &T, uint32_t Depth,
                                         uintptr_t Addr, bool Entry) {
  if (Addr < T.OverflowAddr || (!Entry && Addr == T.OverflowAddr) ||
      signalFloor(T, Addr) > kMaxDepth)
    return Depth;
  __atomic_store_n(&T.Lost, T.Lost + (Depth - kMaxDepth), __ATOMIC_RELAXED);
  T.Depth = kMaxDepth;
  return kMaxDepth;
}

SPIKETRAP_ALWAYS_INLINE uint64_t bump(uint64_t &Counter) {
  uint64_t N = __atomic_load_n(&Counter, __ATOMIC_RELAXED) + 1;
  __atomic_store_n(&Counter, N, __ATOMIC_RELAXED);
  return N;
}

// The thread's own call count, which a signal handler on this thread may
// bump between our load and store. x86-64 increments memory in one
// instruction (what the compiler makes of bump); AArch64 has none: an
// exclusive pair the handler's return breaks. (A plain load and store was
// exact under qemu only while both lay in one translation block:
// runtime/signal-storm.c.)
SPIKETRAP_ALWAYS_INLINE void bumpOwn(uint64_t &Counter) {
#if defined(__aarch64__)
  arch::incrementOwn(&Counter);
#else
  bump(Counter);
#endif
}

SPIKETRAP_ALWAYS_INLINE uint64_t resolve(uint64_t Ns, uint64_t Inherited) {
  return Ns ? nsToTicks(Ns) : Inherited;
}

// Pushes D's frame at Depth. The frame is covered by Depth as soon as it has
// its descriptor and an address no handler frame can be above; the rest is
// filled in after, the real address last.
// Own says whether D may carry thresholds of its own; without, the frame
// inherits its parent's children threshold.
SPIKETRAP_ALWAYS_INLINE Frame &beginFrame(ThreadState &T, spiketrap_desc *D,
                                          uint32_t Depth, bool Own) {
  Frame &F = T.Frames[Depth];
  F.Addr = reinterpret_cast<void *>(kUnderConstruction);
  F.Desc = D;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  T.Depth = Depth + 1;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  uint64_t Inherited = Depth ? T.Frames[Depth - 1].ChildThreshold : 0;
  F.ChildTicks = 0;
  F.Threshold =
      Own ? resolve(__spiketrap_desc_threshold_ns(D), Inherited) : Inherited;
  F.ChildThreshold =
      Own ? resolve(__spiketrap_desc_children_threshold_ns(D), Inherited)
          : Inherited;
  return F;
}

SPIKETRAP_ALWAYS_INLINE void endFrame(Frame &F, void *Addr, uint64_t Start) {
  F.Start = Start;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  F.Addr = Addr;
}

// Switched off for the run (enabled=0): the code the pass emits stops
// calling the hooks for this function at all, probes and site included.
SPIKETRAP_NOINLINE void switchOffForRun(spiketrap_desc *D) {
  // Once: its site passes here until it is rewritten, at once (the program
  // asked for nothing to be timed: one mprotect pair per function, not a
  // trampoline per call until the next batch).
  if (__atomic_exchange_n(&__spiketrap_desc_state(D)->off, kOffWithProbes,
                          __ATOMIC_RELAXED) != kOffWithProbes) {
    requestPatch(D);
    applyPendingPatchesNow();
  }
}

// Everything the fast path leaves out: a thread that is new, busy, paused or
// gone; no usable TSC; calls past the capacity; dead frames on top;
// descriptors with flags (thresholds of their own: SPIKETRAP_DESC_EXTENDED).
// Late: from a late probe, which times a switched-off call from its slow
// path on. Returns whether the call is timed (a frame pushed).
SPIKETRAP_NOINLINE bool enterSlow(ThreadState &T, spiketrap_desc *D,
                                  void *Addr, bool Late = false) {
  // Switched off by adaptive mode (code built without the inline check, or
  // a site not rewritten yet).
  spiketrap_state *S = __spiketrap_desc_state(D);
  if (!Late && __atomic_load_n(&S->off, __ATOMIC_RELAXED))
    return false;
  bool First = false;
  if (T.Status != StatusActive) {
    if (!threadReady(T)) {
      if (T.Status == StatusDead && !flags.enabled)
        switchOffForRun(D);
      return false;
    }
    First = true;
  }
  bumpOwn(T.Calls);
  uint64_t Calls = bump(S->calls);
  uint32_t Depth = T.Depth;
  if (Depth > kMaxDepth)
    Depth = dropOverflow(T, Depth, uintptr_t(Addr), /*Entry=*/true);
  if (Depth && Depth <= kMaxDepth &&
      uintptr_t(T.Frames[Depth - 1].Addr) <= uintptr_t(Addr))
    Depth = dropDeadFrames(T, Depth, uintptr_t(Addr));
  if (Depth >= kMaxDepth) {
    if (Depth == kMaxDepth)
      T.OverflowAddr = uintptr_t(Addr);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    T.Depth = Depth + 1;
    bump(T.Overflows);
    return true;
  }
  // A function's first call: the run-time lists' verdict, into its flags.
  if (Calls == 1 && runListActive)
    runListApply(D);
  Frame &F = beginFrame(T, D, Depth, /*Own=*/true);
  // With the runtime's own bits (runListApply, on another thread); of the
  // descriptor's, the hooks act on the low 16 (the top ones count callees).
  uint32_t Flags = uint16_t(D->flags) |
                   __atomic_load_n(&S->run_flags, __ATOMIC_RELAXED);
  applyListed(F, Flags);
  // The thread's body, its start routine known only now: never a spike.
  if (First && !Depth && atThreadRoot(T, Addr))
    F.Threshold = kNever;
  // Pushed all the same, so stacks and parents stay right.
  if ((Flags & SPIKETRAP_DESC_CHANNEL) &&
      channelDisabled(__spiketrap_desc_channel(D)))
    F.Threshold = kNever;
  endFrame(F, Addr, now());
  // Probes are learned like calls: a slow path that never comes close to
  // the threshold is switched off too.
  if (Late && !(Calls & (kLateLookEvery - 1)))
    adaptLook(D, F.Threshold, /*Late=*/true);
  return true;
}

// A call that came near its threshold (racy: a lost count only delays an
// adaptive decision). 32 bits, saturating: past 4G near calls a function is
// never skippable anyway.
SPIKETRAP_ALWAYS_INLINE void countNear(spiketrap_desc *D) {
  uint32_t *Near = &__spiketrap_desc_state(D)->near_calls;
  uint32_t N = __atomic_load_n(Near, __ATOMIC_RELAXED);
  if (SPIKETRAP_LIKELY(N != UINT32_MAX))
    __atomic_store_n(Near, N + 1, __ATOMIC_RELAXED);
}

// The exit fast path's rare cases: a thread that is not active, no usable
// TSC, calls past the capacity, or a top frame that is not this exit's
// activation (frames below Addr are dead: their exits were skipped; drop
// them and exit the matching frame, if any).
SPIKETRAP_NOINLINE void exitSlow(ThreadState &T, uintptr_t Addr) {
  if (T.Status != StatusActive)
    return;
  uint64_t End = now();
  uint32_t Depth = T.Depth;
  if (Depth > kMaxDepth)
    Depth = dropOverflow(T, Depth, Addr, /*Entry=*/false);
  if (Depth > kMaxDepth) { // this call was counted, not pushed
    if (Addr == T.OverflowAddr) { // the first of them: those past it are gone
      __atomic_store_n(&T.Lost, T.Lost + (Depth - kMaxDepth - 1),
                       __ATOMIC_RELAXED);
      Depth = kMaxDepth + 1;
    }
    T.Depth = Depth - 1;
    return;
  }
  if (T.NumSignals)
    Depth = closeLeftHandlers(T, Depth, Addr, End);
  uint32_t Floor = signalFloor(T, Addr);
  for (; Depth > Floor && uintptr_t(T.Frames[Depth - 1].Addr) < Addr; --Depth)
    closeDeadFrame(T, Depth, End);
  if (Depth && uintptr_t(T.Frames[Depth - 1].Addr) == Addr) {
    payOwedShift(T, Depth);
    const Frame &F = T.Frames[Depth - 1];
    uint64_t Thr = resolvedThreshold(F.Threshold);
    uint64_t Dur = sinceStart(F, End);
    // Counted for adaptive mode as on the fast path.
    if (Dur * kCloseRatio > Thr)
      countNear(const_cast<spiketrap_desc *>(F.Desc));
    if (Dur > Thr)
      captureSpike(T, Depth, End, SpikeFrom::Exit);
    chargeParent(T, Depth, Dur);
    // After the spike's record: what ran before it, not itself.
    recentPush(T, F, End, Depth - 1);
    --Depth;
  }
  // else: an exit whose entry we never saw (the thread was busy); ignore it.
  // Popped last, as in exitNear: once Depth drops, a signal handler's calls
  // reuse the frames above it and add to the ChildTicks of the frame below,
  // so what this exit read or wrote there must not move past the store.
  std::atomic_signal_fence(std::memory_order_seq_cst);
  T.Depth = Depth;
}

// A call near its threshold: count it (racy: a lost count only delays a
// decision); over it, record the spike. Then pop its frame.
SPIKETRAP_NOINLINE void exitNear(ThreadState &T, spiketrap_desc *D,
                                 uint32_t Depth, uint64_t End, uint64_t Thr) {
  countNear(D);
  payOwedShift(T, Depth);
  uint64_t Dur = sinceStart(T.Frames[Depth - 1], End);
  if (Dur > Thr)
    captureSpike(T, Depth, End, SpikeFrom::Exit);
  chargeParent(T, Depth, Dur);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  T.Depth = Depth - 1;
}

// The fast path's look every kLookEvery calls, and at a function's first
// call (Calls 1 modulo kLookEvery: the same one test of the low bits), where
// the run-time lists give it its flags; F is the frame just pushed (at
// Depth), which takes them at once.
SPIKETRAP_NOINLINE void look(ThreadState &T, uint32_t Depth, spiketrap_desc *D,
                             Frame &F, uint64_t Calls) {
  if (!(Calls & 1)) {
    // Called by an ignored frame (main, a thread's start routine, an
    // [ignore]d event loop): stays timed. Its spikes would otherwise have no
    // timed caller to be reported at, nor be sampled: a worker loop's step
    // switched off would hide every spike below it.
    if (Depth && T.Frames[Depth - 1].Threshold == kNever)
      return;
    return adaptLook(D, F.Threshold);
  }
  if (Calls != 1 || !runListActive)
    return;
  applyListed(F, runListApply(D));
}

} // namespace

void __spiketrap::closeFramesLeftBelow(uintptr_t Addr) {
  ThreadState &T = threadState;
  uint32_t Depth = T.Depth;
  if (T.Status != StatusActive || !Depth || Depth > kMaxDepth ||
      uintptr_t(T.Frames[Depth - 1].Addr) > Addr)
    return;
  dropDeadFrames(T, Depth, Addr);
}

namespace {

// The enter hook: a frame pushed and the clock read, or false when the call
// is not timed. Every rare case is a tail call to a cold helper, so the fast
// path needs no stack frame and saves no registers.
SPIKETRAP_ALWAYS_INLINE bool enter(spiketrap_desc *D, void *Addr) {
  ThreadState &T = threadState;
  // Busy, paused, inactive, gone or switched off: return at once. Only a new
  // thread goes on, to register.
  if (SPIKETRAP_UNLIKELY(T.Status != StatusActive) && T.Status != StatusNew) {
    if (T.Status == StatusDead && !flags.enabled)
      switchOffForRun(D);
    return false;
  }
  uint32_t Depth = T.Depth;
  spiketrap_state *S = __spiketrap_desc_state(D);
  if (SPIKETRAP_UNLIKELY(
          T.Status != StatusActive || !theClock.UseCounter ||
          // Only the low 16 bits of flags call for the slow path (thresholds
          // of its own among them: SPIKETRAP_DESC_EXTENDED); the rest say how
          // the descriptor stores its strings and how the function waits.
          // off and the run-time lists' bits: one relaxed load (a plain
          // one), as adaptive mode and runListApply store them.
          (flagsLow(D) | offOrListed(S)) || Depth >= kMaxDepth ||
          (Depth && uintptr_t(T.Frames[Depth - 1].Addr) <= uintptr_t(Addr))))
    return enterSlow(T, D, Addr);
  // Plain increments, as relaxed atomics: the report reads them from another
  // thread, and racing threads may lose a count of a shared descriptor.
  bumpOwn(T.Calls);
  uint64_t Calls = bump(S->calls);
  Frame &F = beginFrame(T, D, Depth, /*Own=*/false);
  endFrame(F, Addr, readCounter());
  // Now and then, a look at whether this function ever comes close; and
  // its first call (Calls 0 or 1 modulo kLookEvery: one test all the same).
  if (SPIKETRAP_UNLIKELY(!(Calls & (kLookEvery - 2))))
    look(T, Depth, D, F, Calls);
  return true;
}

} // namespace

static_assert(SPIKETRAP_DESC_EXTENDED < 0x10000 &&
                  SPIKETRAP_DESC_RELATIVE >= 0x10000,
              "the entry hook tests the low 16 bits of flags");

SPIKETRAP_EXPORT void __spiketrap_enter(spiketrap_desc *D, void *Addr) {
  enter(D, Addr);
}

// From the trampolines (spiketrap_tramp_<arch>.S), for functions timed
// through a patchable site: they call the function's code and the exit hook
// only when this returns true.
extern "C" SPIKETRAP_INTERNAL bool __spiketrap_tramp_enter(spiketrap_desc *D,
                                                           void *Addr) {
  return enter(D, Addr);
}

// A switched-off function took a path into a loop it runs only on some
// calls (the pass's late probe): time the call from here to its return. Rare
// by construction, so all of it is the slow path.
SPIKETRAP_EXPORT void __spiketrap_enter_late(spiketrap_desc *D, void *Addr) {
  enterSlow(threadState, D, Addr, /*Late=*/true);
}

SPIKETRAP_EXPORT void __spiketrap_exit(spiketrap_desc *D, void *Addr) {
  ThreadState &T = threadState;
  if (SPIKETRAP_UNLIKELY(T.Status != StatusActive))
    return;
  uint32_t Depth = T.Depth;
  // Depth 0 (wraps) or past capacity, or not our frame on top.
  if (SPIKETRAP_UNLIKELY(!exitFastPath || Depth - 1 >= kMaxDepth ||
                         T.Frames[Depth - 1].Addr != Addr))
    return exitSlow(T, uintptr_t(Addr));
  uint64_t End = readCounter();
  const Frame &F = T.Frames[Depth - 1];
  uint64_t Thr = resolvedThreshold(F.Threshold);
  // Near its threshold (1/kCloseRatio of it) or over: the cold path counts
  // it for adaptive mode and records a spike.
  uint64_t Dur = End - F.Start;
  if (SPIKETRAP_UNLIKELY(Dur * kCloseRatio > Thr))
    return exitNear(T, D, Depth, End, Thr);
  chargeParent(T, Depth, Dur);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  T.Depth = Depth - 1;
}
