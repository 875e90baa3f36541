//===- ClockTest.cpp - Clock choice and calibration -----------------------===//
#include "spiketrap_clock.h"

#include <gtest/gtest.h>
#include <time.h>

using namespace __spiketrap;

namespace {

// Ticks over a sleep, converted with the calibration, match CLOCK_MONOTONIC.
void expectCalibrated(ClockMode Mode) {
  clockInit(Mode);
  uint64_t T0 = now(), N0 = monotonicNs();
  timespec Sleep = {0, 30 * 1000 * 1000};
  nanosleep(&Sleep, nullptr);
  uint64_t T1 = now(), N1 = monotonicNs();
  double Measured = double(ticksToNs(T1 - T0));
  double Real = double(N1 - N0);
  EXPECT_NEAR(Measured / Real, 1.0, 0.01) << clockName();
  // Round trip through the hooks' fixed-point conversion.
  EXPECT_NEAR(double(ticksToNs(nsToTicks(16600000))), 16600000.0, 100.0);
}

TEST(Clock, TscCalibratedAgainstMonotonic) {
  if (!counterUsable())
    GTEST_SKIP() << "no invariant TSC on this machine";
  expectCalibrated(ClockMode::Tsc);
  EXPECT_TRUE(theClock.UseCounter);
  EXPECT_GT(theClock.TicksPerSecond, 100000000u); // no real TSC runs slower
}

TEST(Clock, MonotonicFallbackCountsNanoseconds) {
  expectCalibrated(ClockMode::Monotonic);
  EXPECT_FALSE(theClock.UseCounter);
  EXPECT_EQ(theClock.TicksPerSecond, 1000000000u);
  EXPECT_EQ(nsToTicks(12345), 12345u);
  clockInit(ClockMode::Auto);
}

// Centuries of ns do not wrap to a few ticks (issue 13): at 3 GHz, 2^64 / 3
// + 1 ns is 2^64 + 2 ticks, which wrapped to a threshold of 2 ticks; and
// nothing converts to UINT64_MAX, the "never reported" marker.
TEST(Clock, ConversionsSaturate) {
  ClockState Saved = theClock;
  theClock.TicksPerSecond = 3000000000ull;
  theClock.TicksPerNsQ32 = 3ull << 32;
  EXPECT_EQ(nsToTicks(1000), 3000u);
  EXPECT_EQ(nsToTicks(UINT64_MAX / 3 + 1), UINT64_MAX - 1);
  EXPECT_EQ(nsToTicks(UINT64_MAX), UINT64_MAX - 1);
  EXPECT_EQ(ticksToNs(3000), 1000u);
  theClock.TicksPerSecond = 100000000ull; // 0.1 tick per ns: ns outgrow ticks
  EXPECT_EQ(ticksToNs(UINT64_MAX - 1), UINT64_MAX - 1);
  theClock.TicksPerSecond = 1000000000ull;
  theClock.TicksPerNsQ32 = 1ull << 32;
  EXPECT_EQ(nsToTicks(UINT64_MAX), UINT64_MAX - 1);
  EXPECT_EQ(ticksToNs(UINT64_MAX), UINT64_MAX - 1);
  theClock = Saved;
}

TEST(Clock, AutoPicksTscWhenUsable) {
  clockInit(ClockMode::Auto);
  EXPECT_EQ(theClock.UseCounter, counterUsable());
}

} // namespace
