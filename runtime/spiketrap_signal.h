//===- spiketrap_signal.h - Signal handlers, interrupt context --*- C++ -*-===//
//
// PET refused to run in interrupt context; our interrupt context is the
// signal handler, and we run there. Handlers installed with sigaction() or
// signal() are wrapped by a trampoline (spiketrap_sigaction.cpp) that
// records a SignalContext on the thread: the depth at delivery (frames below
// it belong to the interrupted code, whatever their addresses: the handler
// may run on an alternate stack) and where the handler's frames live. Spikes
// inside a handler are marked as such. A handler left by siglongjmp leaves a
// stale context behind; the hooks' slow paths drop it as soon as an activation
// lies outside it.
//
// A handler's time is its own, not the interrupted code's: when it returns
// (or its stale context is dropped), the frames it interrupted start later
// by its time, as the frames of a paused thread do, so a call is never late
// by a handler that ran inside it; handlers nested in it are taken out of
// its own time the same way.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SIGNAL_H
#define SPIKETRAP_SIGNAL_H

#include "spiketrap_thread.h"

namespace __spiketrap {

// Drops the contexts of handlers that are no longer running, judged by Addr,
// an activation running now. Returns the depth below which frames must stay:
// the innermost live handler's floor, or 0. Outside handlers (the hooks'
// slow paths, every exit with recent_calls=) it costs a load and a test.
uint32_t signalFloorSlow(ThreadState &T, uintptr_t Addr);
// Whether the handler of context C still runs, judged by Addr, an
// activation running now (on its stack: below its trampoline, or on its
// alternate stack).
bool signalContextLive(const SignalContext &C, uintptr_t Addr);
SPIKETRAP_ALWAYS_INLINE uint32_t signalFloor(ThreadState &T, uintptr_t Addr) {
  return SPIKETRAP_LIKELY(!T.NumSignals) ? 0 : signalFloorSlow(T, Addr);
}

// A handler ran from Start to End on T: the Floor frames it interrupted
// and the Outer handlers running below it start later by its time. Top: the
// frame at Floor - 1 was under construction when the handler came (its
// start may be stored after it: it owes the shift, ThreadState::OwedShift).
void keepHandlerTimeApart(ThreadState &T, uint32_t Floor, uint32_t Outer,
                          uint64_t Start, uint64_t End, bool Top);

// The hooks' slow paths, before timing the frame at Depth - 1: the shift
// it owes, if any, paid.
SPIKETRAP_ALWAYS_INLINE void payOwedShift(ThreadState &T, uint32_t Depth) {
  auto &O = T.OwedShift;
  if (SPIKETRAP_LIKELY(!O.Ticks) || !Depth || Depth > kMaxDepth)
    return;
  if (O.Level == Depth - 1 && T.Frames[O.Level].Start < O.Before)
    T.Frames[O.Level].Start += O.Ticks;
  if (O.Level >= Depth - 1) // paid, or the frame that owed it is gone
    O.Ticks = 0;
}

} // namespace __spiketrap

#endif // SPIKETRAP_SIGNAL_H
