//===- FormatTest.cpp - The runtime's formatter prints what fmt prints ----===//
//
// The runtime formats with a small formatter of its own (docs/design.md, "A
// lean runtime") that takes fmt's format strings: for every spec the runtime
// uses, its output must be fmt's, byte for byte.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_format.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <stdint.h>
#include <string>

namespace {

template <typename... T> std::string ours(const char *F, const T &...Args) {
  __spiketrap::Buffer B;
  B.format(F, Args...);
  return std::string(B.data(), B.size());
}

#define EXPECT_AS_FMT(F, ...)                                                  \
  EXPECT_EQ(ours(F, __VA_ARGS__), fmt::format(F, __VA_ARGS__)) << F

TEST(Format, PlainArgumentsAndBraces) {
  EXPECT_EQ(ours("no arguments {{}}"), fmt::format("no arguments {{}}"));
  EXPECT_AS_FMT("{}{{\"tid\":{},\"name\":", ",", 42u);
  EXPECT_AS_FMT("}}],\"x\":{}", "y");
  EXPECT_AS_FMT("{} {} {} {}", 0, -1, INT64_MIN, UINT64_MAX);
  EXPECT_AS_FMT("{} {} {}", (unsigned char)200, (signed char)-5, 'c');
  EXPECT_AS_FMT("{}/{} {}%", (size_t)3, (uint64_t)7, 42ul);
  EXPECT_AS_FMT("[{}]", "");
}

TEST(Format, ZeroPaddedWidth) {
  for (int V : {0, 5, 12, 123, 1234, 99999})
    EXPECT_AS_FMT("{:02}.{:03}.{:04}", V, V, V);
  EXPECT_AS_FMT("{:03}", -5);
}

TEST(Format, Hex) {
  for (unsigned char C : {0, 1, 0x1f, int('<'), 0x7f, 0xff})
    EXPECT_AS_FMT("\\u{:04x}", C);
}

TEST(Format, AlignedWidth) {
  for (uint64_t V : {0ull, 7ull, 123456ull, 1234567ull})
    EXPECT_AS_FMT("[{:>6}] [{:<2}] [{:6}]", V, V, V);
  for (uint32_t L : {0u, 9u, 10u, 100u})
    EXPECT_AS_FMT("  #{:<2} ", L);
  EXPECT_AS_FMT("  {:<16} {:<10} {}", "threshold", "(10ms)", "text");
  EXPECT_AS_FMT("  {:<16} {:<10} {}", "a_longer_option_name", "(none)", "x");
  EXPECT_AS_FMT("[{:>6}]", "ab");
}

TEST(Format, DynamicWidthAndPrecision) {
  for (unsigned W : {0u, 1u, 2u, 10u})
    EXPECT_AS_FMT("  [{:{}}]", "", W);
  const char *Long = "abcdef+ghi";
  for (size_t N : {(size_t)0, (size_t)3, (size_t)6, (size_t)20})
    EXPECT_AS_FMT("'{:.{}}' ({} characters)", Long, N, 31);
  // Precision counts code points, as fmt's does.
  EXPECT_AS_FMT("'{:.{}}'", "\xc3\xa9\xc3\xa9x", (size_t)2);
}

} // namespace
