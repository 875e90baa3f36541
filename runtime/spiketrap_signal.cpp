//===- spiketrap_signal.cpp - The hooks' view of signal handlers ----------===//
#include "spiketrap_signal.h"
#include "spiketrap_clock.h"

namespace __spiketrap {

bool signalContextLive(const SignalContext &C, uintptr_t Addr) {
  if (C.AltHi) // on an alternate stack: live while activations are on it
    return Addr >= C.AltLo && Addr < C.AltHi;
  return Addr < C.Base; // same stack: the handler's frames are below ours
}

uint32_t signalFloorSlow(ThreadState &T, uintptr_t Addr) {
  uint32_t N = T.NumSignals;
  // Left by siglongjmp: it ran until now, as far as anyone knows.
  for (; N && !signalContextLive(T.Signals[N - 1], Addr); --N)
    keepHandlerTimeApart(T, T.Signals[N - 1].Floor, N - 1, T.SignalStart[N - 1],
                         now(), false);
  T.NumSignals = N;
  return N ? T.Signals[N - 1].Floor : 0;
}

void keepHandlerTimeApart(ThreadState &T, uint32_t Floor, uint32_t Outer,
                          uint64_t Start, uint64_t End, bool Top) {
  if (End <= Start || !T.Frames)
    return;
  uint64_t Ticks = End - Start;
  shiftOpenFrames(T, Floor < kMaxDepth ? Floor : kMaxDepth, Ticks);
  for (uint32_t I = 0; I < Outer && I < kMaxSignalNesting; ++I)
    T.SignalStart[I] += Ticks;
  if (Top && Floor && Floor <= kMaxDepth)
    T.OwedShift = {Floor - 1, Start, Ticks};
}

} // namespace __spiketrap
