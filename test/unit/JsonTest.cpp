//===- JsonTest.cpp - JSON string escaping --------------------------------===//
#include "spiketrap_report_formats.h"

#include <gtest/gtest.h>

#include <string>

using namespace __spiketrap;

namespace {

std::string json(const char *S) {
  Buffer B;
  jsonString(B, S);
  return std::string(B.data(), B.size());
}

TEST(Json, EscapesQuotesControlsAndLessThan) {
  EXPECT_EQ(json("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(json("\n\x01</script>"), "\"\\u000a\\u0001\\u003c/script>\"");
}

TEST(Json, KeepsWellFormedUtf8) {
  EXPECT_EQ(json("\xc3\xa9"), "\"\xc3\xa9\"");                 // U+00E9
  EXPECT_EQ(json("\xe2\x82\xac"), "\"\xe2\x82\xac\"");         // U+20AC
  EXPECT_EQ(json("\xed\x9f\xbf"), "\"\xed\x9f\xbf\"");         // U+D7FF
  EXPECT_EQ(json("\xf0\x90\x80\x80"), "\"\xf0\x90\x80\x80\""); // U+10000
  EXPECT_EQ(json("\xf4\x8f\xbf\xbf"), "\"\xf4\x8f\xbf\xbf\""); // U+10FFFF
}

// Issue 13, finding 6: each ill-formed byte becomes U+FFFD (the maximal
// subpart rule is not needed for validity; one per byte is simplest).
TEST(Json, ReplacesIllFormedUtf8) {
  const std::string R = "\\ufffd";
  EXPECT_EQ(json("\xc0\xaf"), "\"" + R + R + "\"");           // overlong '/'
  EXPECT_EQ(json("\xe0\x80\xaf"), "\"" + R + R + R + "\"");   // overlong
  EXPECT_EQ(json("\xf0\x80\x80\xaf"), "\"" + R + R + R + R + "\"");
  EXPECT_EQ(json("\xed\xa0\x80"), "\"" + R + R + R + "\"");   // surrogate
  EXPECT_EQ(json("\xf4\x90\x80\x80"), "\"" + R + R + R + R + "\""); // >10FFFF
  EXPECT_EQ(json("\xf5\x80\x80\x80"), "\"" + R + R + R + R + "\"");
  EXPECT_EQ(json("\xff"), "\"" + R + "\"");
  EXPECT_EQ(json("\xe2\x82"), "\"" + R + R + "\""); // cut short
  EXPECT_EQ(json("a\x80z"), "\"a" + R + "z\"");      // lone continuation
}

} // namespace
