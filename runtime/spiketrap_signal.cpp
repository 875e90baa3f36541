//===- spiketrap_signal.cpp - The hooks' view of signal handlers ----------===//
#include "spiketrap_signal.h"

namespace __spiketrap {

namespace {
bool contextLive(const SignalContext &C, uintptr_t Addr) {
  if (C.AltHi) // on an alternate stack: live while activations are on it
    return Addr >= C.AltLo && Addr < C.AltHi;
  return Addr < C.Base; // same stack: the handler's frames are below ours
}

} // namespace

uint32_t signalFloor(ThreadState &T, uintptr_t Addr) {
  uint32_t N = T.NumSignals;
  while (N && !contextLive(T.Signals[N - 1], Addr))
    --N;
  T.NumSignals = N;
  return N ? T.Signals[N - 1].Floor : 0;
}

} // namespace __spiketrap
