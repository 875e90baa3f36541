//===- spiketrap_clock.h - The time source of the hooks ---------*- C++ -*-===//
//
// Hooks read raw ticks: the CPU's counter (spiketrap_arch.h: the invariant
// TSC, ~10 ns, or AArch64's cntvct_el0) when it ticks at a constant rate,
// else CLOCK_MONOTONIC in nanoseconds (~25 ns). Ticks become nanoseconds only
// outside the hooks, with the counter's rate (calibrated on x86).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_CLOCK_H
#define SPIKETRAP_CLOCK_H

#include "spiketrap_arch.h"
#include "spiketrap_defs.h"
#include "spiketrap_flags.h"

#include <stdint.h>
#include <time.h>

namespace __spiketrap {

struct ClockState {
  bool UseCounter;         // read by every hook
  uint64_t TicksPerSecond; // calibrated
  uint64_t StartTicks;     // at start-up, for "time since start"
  uint64_t StartNs;        // CLOCK_MONOTONIC at StartTicks
  uint64_t TicksPerNsQ32;  // ticks per ns in 32.32 fixed point, for the hooks
};
extern ClockState theClock SPIKETRAP_INTERNAL;

inline uint64_t monotonicNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000ull + uint64_t(T.tv_nsec);
}

// The hooks' fast paths, once they know the counter is in use.
SPIKETRAP_ALWAYS_INLINE uint64_t readCounter() { return arch::readCounter(); }

SPIKETRAP_ALWAYS_INLINE uint64_t now() {
  if (arch::kHasCounter && SPIKETRAP_LIKELY(theClock.UseCounter))
    return arch::readCounter();
  return monotonicNs();
}

// Whether the CPU's counter ticks at a constant rate (on x86: the TSC is
// invariant, or the kernel's clocksource is tsc).
inline bool counterUsable() { return arch::counterUsable(); }
// Chooses the source and calibrates it against CLOCK_MONOTONIC (a few ms).
void clockInit(ClockMode Mode);

// Both saturate: a duration past 64 bits (centuries) stays one no call
// reaches instead of wrapping to a short one, and never becomes UINT64_MAX,
// which means "never reported" (kNever) in ticks and in the report's ns.
inline uint64_t ticksToNs(uint64_t Ticks) {
  unsigned __int128 Ns =
      ((unsigned __int128)Ticks * 1000000000ull + theClock.TicksPerSecond / 2) /
      theClock.TicksPerSecond;
  return Ns < UINT64_MAX - 1 ? uint64_t(Ns) : UINT64_MAX - 1;
}
// One multiply: cheap enough for an enter hook that meets a threshold.
inline uint64_t nsToTicks(uint64_t Ns) {
  unsigned __int128 Ticks =
      ((unsigned __int128)Ns * theClock.TicksPerNsQ32) >> 32;
  return Ticks < UINT64_MAX - 1 ? uint64_t(Ticks) : UINT64_MAX - 1;
}
const char *clockName();

} // namespace __spiketrap

#endif // SPIKETRAP_CLOCK_H
