//===- spiketrap_recent.h - The calls just before a spike -------*- C++ -*-===//
//
// With recent_calls=N, each thread keeps a ring of its last N timed calls
// (function, start, end, depth), and each spike record carries a copy: the
// frame around the spike, what else ran before it (funtrace's snapshot).
// Off by default: it sends every timed call's exit through the slow path.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_RECENT_H
#define SPIKETRAP_RECENT_H

#include "spiketrap_record.h"
#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

struct RecentRing {
  uint64_t Next; // calls pushed so far; slot Next & Mask is the next
  uint64_t Mask;
  RecentCall Calls[1];
};

// Slots per ring: recent_calls rounded up to a power of two; 0: off.
extern uint32_t recentCapacity SPIKETRAP_INTERNAL;

// Start-up: reads recent_calls.
void recentInit();
// At a thread's registration and exit: its ring, mapped (no malloc in a
// hook's slow path) and unmapped.
void recentAttach(ThreadState &T);
void recentDetach(ThreadState &T);

// Records the call of frame F, which ended at End, at depth Depth. On the
// thread's own hooks only; a signal handler's push interleaving with ours
// may overwrite one entry, never tear the ring.
inline void recentPush(ThreadState &T, const Frame &F, uint64_t End,
                       uint32_t Depth) {
  RecentRing *R = T.Recent;
  if (!R)
    return;
  uint64_t I = R->Next;
  R->Next = I + 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  R->Calls[I & R->Mask] = {F.Desc, F.Start, End, Depth, 0};
}

// How many calls the ring of T holds now (at most its capacity).
uint32_t recentCount(const ThreadState &T);
// Copies them into Out[Max], oldest first; returns how many.
uint32_t recentCopy(const ThreadState &T, RecentCall *Out, uint32_t Max);

} // namespace __spiketrap

#endif // SPIKETRAP_RECENT_H
