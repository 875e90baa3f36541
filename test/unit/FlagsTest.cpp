//===- FlagsTest.cpp - SPIKETRAP_OPTIONS parsing --------------------------===//
#include "spiketrap_flags.h"
#include "spiketrap_format.h"

#include <gtest/gtest.h>

namespace {
// The runtime writes to descriptor 2 only while it is the one it started
// with (spiketrap_format.h): GoogleTest's capture puts a file there, which
// the runtime is told to take as its stderr for the time of the capture.
void captureStderr() {
  testing::internal::CaptureStderr();
  __spiketrap::stderrInit();
}
std::string capturedStderr() {
  std::string Out = testing::internal::GetCapturedStderr();
  __spiketrap::stderrInit();
  return Out;
}
} // namespace

using namespace __spiketrap;

namespace {

uint64_t duration(const char *S) {
  uint64_t Ns = 0;
  return DurationFlag::parse(S, &Ns) ? Ns : 0;
}

TEST(Flags, Durations) {
  EXPECT_EQ(duration("1ms"), 1000000u);
  EXPECT_EQ(duration("16.6ms"), 16600000u);
  EXPECT_EQ(duration("500us"), 500000u);
  EXPECT_EQ(duration("0.1ms"), 100000u);
  EXPECT_EQ(duration("2s"), 2000000000u);
  EXPECT_EQ(duration("250ns"), 250u);
  EXPECT_EQ(duration("3"), 3000000u); // a bare number is milliseconds
  EXPECT_EQ(duration("0ms"), 0u);     // out of range
  EXPECT_EQ(duration("2h"), 0u);      // unknown unit
  EXPECT_EQ(duration("ms"), 0u);
  EXPECT_EQ(duration("-1ms"), 0u);
  EXPECT_EQ(duration("1.5.2ms"), 0u);
  EXPECT_EQ(duration("99999999999999999999ms"), 0u);
  // Would wrap to 0.29 s when the fraction is added (issue 13, finding 8).
  EXPECT_EQ(duration("18446744073.9999s"), 0u);
  EXPECT_EQ(duration("18446744073709551615.9ns"), 0u);
  EXPECT_EQ(duration("3600s"), 3600000000000u);
  EXPECT_EQ(duration("3600.000000001s"), 0u);
}

TEST(Flags, Sizes) {
  uint64_t B = 0;
  EXPECT_TRUE(SizeFlag::parse("8M", &B));
  EXPECT_EQ(B, 8u << 20);
  EXPECT_TRUE(SizeFlag::parse("512k", &B));
  EXPECT_EQ(B, 512u << 10);
  EXPECT_FALSE(SizeFlag::parse("1K", &B)); // below the minimum
  EXPECT_FALSE(SizeFlag::parse("8X", &B));
  // The unit scales the fraction too (issue 13, finding 8).
  EXPECT_TRUE(SizeFlag::parse("1.5M", &B));
  EXPECT_EQ(B, 3u << 19);
  EXPECT_TRUE(SizeFlag::parse("0.5M", &B));
  EXPECT_EQ(B, 512u << 10);
  EXPECT_TRUE(SizeFlag::parse("16G", &B));
  EXPECT_FALSE(SizeFlag::parse("16.5G", &B));
  EXPECT_FALSE(SizeFlag::parse("99999999999G", &B));
  EXPECT_FALSE(SizeFlag::parse("M", &B));
}

TEST(Flags, ParseKeepsDefaultsOnBadEntries) {
  Flags F;
  F.setDefaults();
  EXPECT_EQ(F.threshold, 1000000u);
  captureStderr();
  int Bad = F.parse("threshold=abc:nonsense=1:verbosity=2, clock=monotonic "
                    "report='/tmp/a b.txt' spike_memory=1Q noequals");
  std::string Err = capturedStderr();
  EXPECT_EQ(Bad, 4);
  EXPECT_EQ(F.threshold, 1000000u);
  EXPECT_EQ(F.verbosity, 2);
  EXPECT_EQ(F.clock, ClockMode::Monotonic);
  EXPECT_STREQ(F.report, "/tmp/a b.txt");
  EXPECT_EQ(F.spike_memory, 8u << 20);
  EXPECT_NE(Err.find("threshold=abc: expected a duration"), std::string::npos)
      << Err;
  EXPECT_NE(Err.find("unknown option 'nonsense'"), std::string::npos) << Err;
  EXPECT_NE(Err.find("'noequals' is not name=value"), std::string::npos) << Err;
}

TEST(Flags, UnterminatedQuoteKeepsTheDefault) {
  Flags F;
  F.setDefaults();
  captureStderr();
  int Bad = F.parse("verbosity=1:report='/tmp/a b.txt");
  std::string Err = capturedStderr();
  EXPECT_EQ(Bad, 1);
  EXPECT_EQ(F.verbosity, 1);
  EXPECT_STREQ(F.report, "stderr");
  EXPECT_NE(Err.find("report: the value's ' quote is not closed"),
            std::string::npos)
      << Err;
}

TEST(Flags, HelpListsEveryOption) {
  Flags F;
  F.setDefaults();
  captureStderr();
  F.printHelp();
  std::string Out = capturedStderr();
#define SPIKETRAP_FLAG(Type, Name, Default, Description)                       \
  EXPECT_NE(Out.find(#Name), std::string::npos) << #Name;                      \
  EXPECT_NE(Out.find("(" Default ")"), std::string::npos) << #Name;
#include "spiketrap_flags.inc"
}

} // namespace
