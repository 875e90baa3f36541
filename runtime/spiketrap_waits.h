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

#include <stdint.h>

// Sanitizers intercept these same functions; a definition of ours would
// hide their interceptors from the program (TSan would stop seeing locks).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SPIKETRAP_INTERPOSE_WAITS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define SPIKETRAP_INTERPOSE_WAITS 0
#endif
#endif
#ifndef SPIKETRAP_INTERPOSE_WAITS
#define SPIKETRAP_INTERPOSE_WAITS 1
#endif

namespace __spiketrap {

struct ThreadState;
struct SpikeLevel;

// Kind ids of the interposed calls, in spiketrap_waits.inc's order; 0: none.
enum WaitCall : uint8_t {
  WaitNone = 0,
#define SPIKETRAP_WAIT(Name, ...) Wait_##Name,
#define SPIKETRAP_WAIT_OWN(Name) Wait_##Name,
#include "spiketrap_waits.inc"
  kNumWaitCalls
};

// The call's name as reports show it ("pthread_mutex_lock", "futex").
const char *waitCallName(uint32_t Call);

// A small ring per thread: a spike that waited more than this many times
// inside one call sees only the last ones (and says "at least").
constexpr uint32_t kWaitSlots = 64;
struct WaitEntry {
  uint64_t Start, End;        // ticks; End 0: being written
  const spiketrap_desc *Desc; // innermost open frame when it began
};
struct WaitRing {
  uint64_t Next;    // entries ever written; the slot is Next % kWaitSlots
  uint64_t Evicted; // latest End of an entry overwritten
  WaitEntry Entries[kWaitSlots];
  uint8_t Calls[kWaitSlots]; // WaitCall of each entry
};

// The longest wait inside a spiking call.
struct WaitSummary {
  uint64_t LongestTicks;
  const spiketrap_desc *LongestDesc; // the function it was waited from
  uint32_t LongestCall;              // WaitCall; WaitNone: no wait
  bool LowerBound; // the ring wrapped during the call: waits were lost
};

// Sums T's waits inside each of the N levels (their Start to End) into
// Level[I].WaitTicks, and describes the last level's longest wait. On T's
// own thread (recordSpike).
void sumWaits(const ThreadState &T, SpikeLevel *Level, uint32_t N,
              uint64_t End, WaitSummary &Out);

// Resolves the real functions while the process is single-threaded.
void waitsInit();

// What every generated wrapper does around the real call, out of line once
// (spiketrap_waits_calls.cpp): waitBegin finds the real function and, on a
// thread whose waits are noted, reads the clock; waitEnd notes the wait.
// Both keep errno and are async-signal-safe.
struct WaitScope {
  void *Real;                 // the real function (or its static fallback)
  const spiketrap_desc *Desc; // innermost open frame; null: not noted
  uint64_t Start;             // ticks
  uint32_t Call;              // WaitCall
  bool Marked;                // counted in the thread's InWait
  bool Paused;                // the sampling signal is held back meanwhile
};
void waitBegin(WaitScope &W, uint32_t Call);
void waitEnd(const WaitScope &W);

} // namespace __spiketrap

#endif // SPIKETRAP_WAITS_H
