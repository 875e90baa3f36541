//===- spiketrap_waits.h - Time spent waiting in the C library --*- C++ -*-===//
//
// The runtime interposes the C library's waiting calls (locks, condition
// variables, semaphores, sleeps, I/O, poll, futex through syscall():
// spiketrap_waits.inc). Each one a thread makes inside an instrumented call
// is noted in a small ring in its ThreadState: when it started and ended,
// which call, and the innermost open frame. The hooks never look at it; a
// spike (the rare path) sums the waits inside each of its levels.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_WAITS_H
#define SPIKETRAP_WAITS_H

#include "spiketrap.h"
#include "spiketrap_defs.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_thread.h"

#include <stdint.h>
#include <type_traits>

namespace __spiketrap {

struct SpikeLevel;

// The platform's waiting calls: the C library's (spiketrap_waits.inc) or
// Windows's (spiketrap_waits_win.inc).
#ifdef _WIN32
#define SPIKETRAP_WAITS_INC "spiketrap_waits_win.inc"
#else
#define SPIKETRAP_WAITS_INC "spiketrap_waits.inc"
#endif

// Kind ids of the interposed calls, in SPIKETRAP_WAITS_INC's order; 0: none.
enum WaitCall : uint8_t {
  WaitNone = 0,
#define SPIKETRAP_WAIT(Name, ...) Wait_##Name,
#define SPIKETRAP_WAIT_OWN(Name, ...) Wait_##Name,
#include SPIKETRAP_WAITS_INC
  kNumWaitCalls
};

// The call's name as reports show it ("pthread_mutex_lock", "futex").
const char *waitCallName(uint32_t Call);

// How a wait counts when a call runs late (spiketrap_waits.inc's
// SPIKETRAP_WAIT_IDLE lines): a stall (it held the thread up), a sleep or a
// readiness wait (idle), or a wait to be woken, which is idle only for a
// worker waiting for work: on a thread other than the program's main thread,
// when the thread's outermost open call that can be reported had run (not
// waited) less than 1/kIdleShare of its threshold when the wait began.
// After such work, or on the main thread (a frame loop waiting for its
// workers), it waits for a result: a stall. docs/selection.md has the cases.
enum WaitKind : uint8_t { WaitStall = 0, WaitSleep, WaitReady, WaitWork };
WaitKind waitKind(uint32_t Call);
constexpr uint64_t kIdleShare = 20;

// The longest wait inside a spiking call.
struct WaitSummary {
  uint64_t LongestTicks;
  const spiketrap_desc *LongestDesc; // the function it was waited from
  uint32_t LongestCall;              // WaitCall; WaitNone: no wait
  bool LowerBound;  // the ring wrapped during the call: waits were lost
  bool LongestIdle; // the longest wait was idle
};

// A complete wait of a thread's ring, and how it counts.
struct WaitCopy {
  uint64_t Start, End;
  const spiketrap_desc *Desc;
  uint32_t Call;
  bool Idle;
  uint32_t PreemptedUs;
};

// A thread's waits as one spike reads them, once (spiketrap_capture.cpp):
// those that ended after its outermost open call began, each classified
// (waitKind) for the outermost of its open calls that can be reported.
struct SpikeWaits {
  WaitCopy W[kWaitSlots];
  uint32_t N;
  bool LowerBound; // the ring wrapped during the spiking call: waits lost
};

// Copies and classifies the waits of T, whose open call at Depth - 1 is
// the spike. MainThread: T is the program's main thread. On T's own thread.
void copySpikeWaits(const ThreadState &T, uint32_t Depth, bool MainThread,
                    SpikeWaits &Out);

// Sums the waits inside each of the N levels (their Start to End) into
// Level[I].WaitTicks, the idle ones also into Level[I].IdleTicks, and
// describes the last level's longest wait.
void sumWaits(const SpikeWaits &W, SpikeLevel *Level, uint32_t N, uint64_t End,
              WaitSummary &Out);

// The idle time (above) from From to End, and the call it mostly idled in
// (*Call): a call that is over its threshold only by its idle time is no
// spike.
uint64_t idleTicks(const SpikeWaits &W, uint64_t From, uint64_t End,
                   uint32_t *Call);

// All waiting from From to End, in ticks.
uint64_t waitTicks(const SpikeWaits &W, uint64_t From, uint64_t End);

// The time the waits that began at or after From and ended by To were
// preempted (WaitRing::PreemptedUs), in ns.
uint64_t waitsPreemptedNs(const SpikeWaits &W, uint64_t From, uint64_t To);

// Resolves the real functions while the process is single-threaded.
void waitsInit();
// The platform's part of it: where the waiting calls are not interposed by
// name (Windows), their wrappers are put in the program's import tables.
void waitsInstall();

// The function the wrapper of the interposed call Call calls when dlsym has
// none (a static program): never null (spiketrap_static_linux.cpp).
void *staticWait(uint32_t Call);

// What every generated wrapper does around the real call, out of line once
// (spiketrap_waits_calls_linux.cpp): waitBegin finds the real function
// and, on a thread whose waits are noted, reads the clock; waitEnd notes
// the wait.
// Both keep errno and are async-signal-safe.
struct WaitScope {
  void *Real;                 // the real function (or its static fallback)
  const spiketrap_desc *Desc; // innermost open frame; null: not noted
  uint64_t Start;             // ticks
  uint32_t Call;              // WaitCall
  bool Marked;                // counted in the thread's InWait
  // The thread's last reading of its CPU time before the wait (CpuBase,
  // runDelayWaitBegins).
  CpuReading Base;
};
void waitBegin(WaitScope &W, uint32_t Call);
void waitEnd(const WaitScope &W);
// The real function of Call (or its static fallback), for a wrapper that
// times only some of its calls (syscall(): futex waits).
void *waitRealFn(uint32_t Call);

// On a function that is never on the stack when a thread is cancelled (it
// cannot be cancelled, or it only jumps on and the compiler keeps it so):
// no unwind entry for it in a file built with unwind tables (clang; with
// -fno-exceptions).
#if defined(__clang__)
#define SPIKETRAP_NO_UNWIND_TABLE __attribute__((nouwtable))
#else
#define SPIKETRAP_NO_UNWIND_TABLE
#endif

// One integer or pointer argument as the word it is passed in (to the
// wrappers' shared body, or to a system call).
template <typename T> SPIKETRAP_ALWAYS_INLINE long word(T V) {
  // A floating-point or struct argument travels in other registers.
  static_assert(std::is_integral_v<T> || std::is_enum_v<T> ||
                    std::is_pointer_v<T>,
                "only integer and pointer arguments pass as words");
  if constexpr (std::is_pointer_v<T>)
    return long(reinterpret_cast<uintptr_t>(V));
  else
    return long(V);
}

// The program is about to install a seccomp filter (the interposed prctl or
// syscall): sampling and run-delay readings stop for the run, on every
// thread, while their system calls still can (spiketrap_sandbox.h).
void sandboxComing();

} // namespace __spiketrap

#endif // SPIKETRAP_WAITS_H
