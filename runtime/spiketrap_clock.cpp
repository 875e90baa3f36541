//===- spiketrap_clock.cpp - Clock choice and calibration -----------------===//
#include "spiketrap_clock.h"
#include "spiketrap_format.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace __spiketrap {

// Monotonic nanoseconds until clockInit: a clock that is right, if slower.
ClockState theClock = {false, 1000000000ull, 0, 0, 1ull << 32};

static bool kernelUsesTsc() {
  int Fd = open("/sys/devices/system/clocksource/clocksource0/"
                "current_clocksource",
                O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  char Buf[16] = {};
  ssize_t N = read(Fd, Buf, sizeof(Buf) - 1);
  close(Fd);
  return N >= 3 && strncmp(Buf, "tsc", 3) == 0;
}

bool tscUsable() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned A, B, C, D;
  // CPUID 0x80000007 EDX bit 8: invariant TSC (constant rate, never stops).
  if (__get_cpuid(0x80000007, &A, &B, &C, &D) && (D & (1u << 8)))
    return true;
  // VMs often hide the bit; a kernel that keeps time with the TSC trusts it.
  return kernelUsesTsc();
#else
  return false;
#endif
}

// One (ticks, ns) pair read as close together as we can: the tightest of a
// few tries bounds the error by the window between the two tick reads.
static void setRate(uint64_t TicksPerSecond) {
  theClock.TicksPerSecond = TicksPerSecond ? TicksPerSecond : 1;
  theClock.TicksPerNsQ32 = uint64_t(
      ((unsigned __int128)theClock.TicksPerSecond << 32) / 1000000000ull);
}

static void readPair(uint64_t *Ticks, uint64_t *Ns) {
  uint64_t Best = UINT64_MAX;
  for (int I = 0; I < 8; ++I) {
    uint64_t T0 = now(), N = monotonicNs(), T1 = now();
    if (T1 - T0 < Best) {
      Best = T1 - T0;
      *Ticks = T0 + (T1 - T0) / 2;
      *Ns = N;
    }
  }
}

void clockInit(ClockMode Mode) {
  bool Tsc = Mode == ClockMode::Tsc || (Mode == ClockMode::Auto && tscUsable());
#if !defined(__x86_64__) && !defined(__i386__)
  Tsc = false;
#endif
  theClock.UseTsc = Tsc;
  setRate(1000000000ull);
  if (Tsc) {
    uint64_t T0, N0, T1, N1;
    readPair(&T0, &N0);
    // 5 ms against CLOCK_MONOTONIC: ~1e-5 relative error, paid once.
    do
      readPair(&T1, &N1);
    while (N1 - N0 < 5000000);
    setRate(uint64_t((unsigned __int128)(T1 - T0) * 1000000000ull / (N1 - N0)));
  }
  readPair(&theClock.StartTicks, &theClock.StartNs);
}

const char *clockName() { return theClock.UseTsc ? "tsc" : "monotonic"; }

} // namespace __spiketrap
