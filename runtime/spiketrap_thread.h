//===- spiketrap_thread.h - Per-thread stack of open calls ------*- C++ -*-===//
//
// Each thread owns one ThreadState in static TLS (initial-exec: one
// %fs-relative access, no allocation, no lazy init): the stack of open frames
// PET kept, at a fixed capacity. Threads join a registry on their first hook
// call (spiketrap_registry.h), which defines the variables declared here.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_THREAD_H
#define SPIKETRAP_THREAD_H

#include "spiketrap.h"
#include "spiketrap_defs.h"

#include <stdint.h>

namespace __spiketrap {

struct RecentRing;
struct KernelRing;
struct SampleBuffer;

// PET's depth; deeper calls are counted, not timed.
constexpr uint32_t kMaxDepth = 256;
// A threshold no duration exceeds: the frame is never reported.
constexpr uint64_t kNever = UINT64_MAX;

// Frame::Addr of a frame whose entry hook has not finished: its Depth is
// published, its start and address not yet (spiketrap_hooks.cpp).
constexpr uintptr_t kUnderConstruction = UINTPTR_MAX;

struct Frame {
  const spiketrap_desc *Desc;
  void *Addr;              // return-address slot: identifies the activation
  uint64_t Start;          // ticks at entry
  uint64_t Threshold;      // ticks; 0 means the global threshold
  uint64_t ChildThreshold; // what callees without their own inherit
  uint64_t ChildTicks;     // time in timed callees that have returned
};

enum ThreadStatus : uint8_t {
  StatusNew = 0,    // no hook call yet: register on the first
  StatusActive = 1, // hooks record
  StatusBusy = 2,   // the runtime itself is running: hooks return at once
  StatusDead = 3,   // thread exited, or enabled=0: hooks return at once
  // Set by the API (spiketrap_api.cpp); hooks return at once, as when Busy,
  // so pausing costs the hot path nothing.
  StatusPaused = 4,   // spiketrap_pause
  StatusInactive = 5, // spiketrap_set_thread_active(0)
};

// A message attached to an open frame (spiketrap_messagef), kept in a bounded
// per-thread pool. A slot belongs to the frame at Level while that frame has
// the same Desc and Start, so the hooks never clear it: nothing on the hot
// path. Written by the API only, read when a spike is recorded.
constexpr uint32_t kMessageSlots = 8;
constexpr uint32_t kMessageBytes = 112; // longer messages are cut
enum MessageKind : uint8_t { MessageDesc = 0, MessageOverThreshold = 1 };
struct MessageSlot {
  const spiketrap_desc *Desc; // null: free
  uint64_t Start;
  uint32_t Level;
  uint8_t Kind;
  char Text[kMessageBytes];
};

// A signal handler running on this thread (see spiketrap_signal.h).
struct SignalContext {
  uint32_t Floor; // depth at delivery: frames below belong to the interrupted
                  // code and are never dropped by the handler's hooks
  int Signo;
  uintptr_t Base; // in the trampoline's frame: handler activations lie below
  uintptr_t AltLo, AltHi; // the alternate stack the handler runs on, if any
};
constexpr uint32_t kMaxSignalNesting = 8;

// The thread's waits in the C library inside instrumented calls, noted by
// the interposed calls (spiketrap_waits.h) in a small ring: a spike that
// waited more than this many times inside one call sees only the last ones
// (and says "at least").
constexpr uint32_t kWaitSlots = 64;
struct WaitEntry {
  uint64_t Start, End;        // ticks; End 0: being written
  const spiketrap_desc *Desc; // innermost open frame when it began
};
struct WaitRing {
  uint64_t Next;    // entries ever written; the slot is Next % kWaitSlots
  uint64_t Evicted; // latest End of an entry overwritten
  WaitEntry Entries[kWaitSlots];
  uint8_t Calls[kWaitSlots]; // WaitCall of each entry (spiketrap_waits.h)
  // Of each entry, the time off the CPU inside the call that was no sleep
  // (its thread preempted), in us: taken out of its End already
  // (runDelayInWait).
  uint32_t PreemptedUs[kWaitSlots];
};

// The kernel's run delay of the thread (its schedstat: nanoseconds it waited
// for a CPU while runnable), as read at a time (spiketrap_rundelay.h).
constexpr uint32_t kRunDelayMarks = 4;
struct RunDelayMark {
  uint64_t At; // ticks, before the read; 0: none (written last)
  uint64_t Ns;
  uint64_t CpuNs;   // the thread's CPU time, read after; 0: not known
  uint64_t Blocked; // its voluntary context switches; UINT64_MAX: not known
};

struct ThreadState {
  uint32_t Depth; // open frames, may exceed kMaxDepth
  uint8_t Status;
  uint8_t StatusBeforeFork; // Status while this thread runs fork's handlers
  uint32_t Tid;
  uint64_t Calls;     // instrumented calls seen
  uint64_t Overflows; // calls deeper than kMaxDepth
  // Calls past kMaxDepth have no frame: the first one's activation (its
  // return-address slot) is kept, so a hook above it knows they are gone.
  uintptr_t OverflowAddr;
  uint64_t Lost; // calls past kMaxDepth left without an exit (longjmp)
  ThreadState *Next, *Prev;
  uint32_t NumSignals; // handlers running, innermost last
  SignalContext Signals[kMaxSignalNesting];
  // Run-time API state, never read by the hooks.
  uint32_t PauseDepth;
  bool Inactive;
  uint64_t PauseStart; // ticks when the outermost pause began
  char Name[16];       // spiketrap_set_thread_name; "" if none
  // The kernel's name, read at registration and kept by pthread_setname_np
  // (atomically, a word at a time: hence the alignment).
  alignas(8) char KernelName[16];
  unsigned long Self; // pthread_self(), to find the thread by handle
  // Owned by the hang watchdog (spiketrap_watchdog.cpp), never by the hooks.
  struct {
    uint64_t Calls, Depth, Since; // last seen, and when they last changed
    const spiketrap_desc *Desc;   // the frame reported as hung, or null
    uint64_t Start, Record;       // its start; its record's arena offset
    uint32_t Level;
  } Watch;
  MessageSlot Messages[kMessageSlots];
  struct RecentRing *Recent; // recent_calls=: the last timed calls, or null
  // The open frames, kMaxDepth of them: mapped when the thread registers,
  // null before. Not in the static TLS, which glibc takes out of every
  // thread's stack: a thread made with PTHREAD_STACK_MIN (16 KiB) must still
  // start, and a small stack keep its room.
  Frame *Frames;
  // Written only by the interposed waiting calls (spiketrap_waits.cpp),
  // read when a spike is recorded; after Frames, so the hooks' offsets stay.
  WaitRing Waits;
  // kernel_events=: the thread's perf event ring, or null.
  struct KernelRing *Kernel;
  // sample=: the thread's samples and timer (spiketrap_sampler.h), null
  // until it registers (or the watcher gives it a buffer).
  struct SampleBuffer *Samples;
  // Interposed waits in progress (spiketrap_waits.cpp): the watcher's look
  // neither reads the run delay of a thread that waits nor starts its
  // sampling timer then.
  uint32_t InWait;
  // Preemption (spiketrap_rundelay.h): the watcher's readings of the run
  // delay while a call was open past half its threshold, and the thread's
  // own last reading, when a spike was recorded.
  uint32_t RunDelayNext;    // the next slot
  uint32_t RunDelayWriting; // a reading is being kept: the other writer skips
  RunDelayMark RunDelayMarks[kRunDelayMarks];
  RunDelayMark RunDelayLast;
  // The thread's own last reading of its CPU time and voluntary context
  // switches (its sampling tick, or the end of a long interposed wait; Ns
  // unused): what a long wait compares with (runDelayInWait).
  RunDelayMark CpuBase;
  // The times this thread slept waiting for the /proc reader
  // (spiketrap_procread_linux.cpp): voluntary context switches of ours, which
  // the run-delay arithmetic takes out of its counts.
  uint64_t ProcReadSleeps;
  // Signal handlers (spiketrap_sigaction.cpp): when each running one began
  // (ticks, later by the time of handlers nested in it), by nesting level.
  // A handler's time is no one's below it: the frames it interrupted start
  // later by it when it returns (keepHandlerTimeApart, spiketrap_signal.h).
  uint64_t SignalStart[kMaxSignalNesting];
  // The shift a frame under construction when a handler came still owes:
  // its start may be a clock read from before the handler, stored after.
  // Owed by the frame at Level whose start is before Before; Ticks 0: none.
  struct {
    uint32_t Level;
    uint64_t Before, Ticks;
  } OwedShift;
};
static_assert(sizeof(ThreadState) <= 4096,
              "keep the static TLS small: it comes out of each thread's stack");

// Whether message slot S still belongs to an open frame of T below Depth.
inline bool liveMessage(const ThreadState &T, const MessageSlot &S,
                        uint32_t Depth) {
  return S.Desc && S.Level < Depth && T.Frames[S.Level].Desc == S.Desc &&
         T.Frames[S.Level].Start == S.Start;
}

// The Below lowest open frames of T, and their messages, start Ticks later:
// time the user paused is no one's.
inline void shiftOpenFrames(ThreadState &T, uint32_t Below, uint64_t Ticks) {
  for (MessageSlot &S : T.Messages)
    if (liveMessage(T, S, Below))
      S.Start += Ticks;
  for (uint32_t I = 0; I < Below; ++I)
    T.Frames[I].Start += Ticks;
}

// Room a spike's capture works in (spiketrap_capture.cpp), mapped right
// after a thread's frames: too large for the static TLS or a small stack.
constexpr uint64_t kCaptureScratchBytes = 4096;
inline void *captureScratch(const ThreadState &T) {
  return reinterpret_cast<char *>(T.Frames) + kMaxDepth * sizeof(Frame);
}

extern __thread ThreadState threadState
    __attribute__((tls_model("initial-exec"))) SPIKETRAP_INTERNAL;

// Global threshold in ticks: kNever until start-up has calibrated the clock.
extern uint64_t globalThresholdTicks SPIKETRAP_INTERNAL;
// A frame's threshold in ticks: its own or inherited one (Frame::Threshold),
// else (0) the global one.
SPIKETRAP_ALWAYS_INLINE uint64_t resolvedThreshold(uint64_t Ticks) {
  return Ticks ? Ticks : globalThresholdTicks;
}
// Whether __spiketrap_exit may take its fast path: the TSC is the clock and
// no option needs every exit (recent_calls=). False until start-up.
extern bool exitFastPath SPIKETRAP_INTERNAL;

// PET's TLS re-entrancy flag as a scope: while it lives, this thread's hooks
// return at once, so the runtime calling instrumented code (a user's malloc,
// a callback) never recurses into itself.
class RecursionGuard {
public:
  RecursionGuard() : T(threadState), Saved(T.Status) { T.Status = StatusBusy; }
  ~RecursionGuard() { T.Status = Saved; }
  RecursionGuard(const RecursionGuard &) = delete;
  RecursionGuard &operator=(const RecursionGuard &) = delete;

private:
  ThreadState &T;
  uint8_t Saved;
};

} // namespace __spiketrap

#endif // SPIKETRAP_THREAD_H
