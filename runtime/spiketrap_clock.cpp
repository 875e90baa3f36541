//===- spiketrap_clock.cpp - Clock choice and calibration -----------------===//
#include "spiketrap_clock.h"
#include "spiketrap_format.h"

#include <string.h>

namespace __spiketrap {

// Monotonic nanoseconds until clockInit: a clock that is right, if slower.
ClockState theClock = {false, 1000000000ull, 0, 0, 1ull << 32};

static void setRate(uint64_t TicksPerSecond) {
  theClock.TicksPerSecond = TicksPerSecond ? TicksPerSecond : 1;
  theClock.TicksPerNsQ32 = uint64_t(
      ((unsigned __int128)theClock.TicksPerSecond << 32) / 1000000000ull);
}

static uint64_t readTicksOrdered() {
  return theClock.UseCounter ? arch::readCounterOrdered() : monotonicNs();
}

// One (ticks, ns) pair read as close together as we can: the tightest of a
// few tries bounds the error by the window between the two tick reads.
static void readPair(uint64_t *Ticks, uint64_t *Ns) {
  uint64_t Best = UINT64_MAX;
  for (int I = 0; I < 8; ++I) {
    uint64_t T0 = readTicksOrdered(), N = monotonicNs(),
             T1 = readTicksOrdered();
    if (T1 - T0 < Best) {
      Best = T1 - T0;
      *Ticks = T0 + (T1 - T0) / 2;
      *Ns = N;
    }
  }
}

// 5 ms against CLOCK_MONOTONIC: ~1e-5 relative error, paid once.
static void calibrate() {
  uint64_t T0, N0, T1, N1;
  readPair(&T0, &N0);
  do
    readPair(&T1, &N1);
  while (N1 - N0 < 5000000);
  setRate(uint64_t((unsigned __int128)(T1 - T0) * 1000000000ull / (N1 - N0)));
}

void clockInit(ClockMode Mode) {
  bool Counter = arch::kHasCounter &&
                 (Mode == ClockMode::Tsc ||
                  (Mode == ClockMode::Auto && counterUsable()));
  theClock.UseCounter = Counter;
  setRate(1000000000ull);
  if (Counter && arch::counterFrequency())
    setRate(arch::counterFrequency()); // architectural: nothing to measure
  else if (Counter)
    calibrate();
  readPair(&theClock.StartTicks, &theClock.StartNs);
}

const char *clockName() {
  return theClock.UseCounter ? arch::kCounterName : "monotonic";
}

} // namespace __spiketrap
