// The run-time lists' glob matcher (runtime/spiketrap_runlist.cpp): the
// syntax of LLVM's GlobPattern, which SpecialCaseList (the compile-time
// lists) uses, so one list means the same to the pass and the runtime.
#include "spiketrap_runlist.h"

#include <gtest/gtest.h>

using __spiketrap::globMatch;
using __spiketrap::globValid;

namespace {
bool valid(const char *P) {
  const char *Why = nullptr;
  return globValid(P, &Why);
}
} // namespace

TEST(GlobTest, LiteralsMatchWhole) {
  EXPECT_TRUE(globMatch("I_Sleep", "I_Sleep"));
  EXPECT_FALSE(globMatch("I_Sleep", "I_SleepMore"));
  EXPECT_FALSE(globMatch("I_Sleep", "xI_Sleep"));
  EXPECT_FALSE(globMatch("a", ""));
}

TEST(GlobTest, StarAndQuestion) {
  EXPECT_TRUE(globMatch("ae*", "aeProcessEvents"));
  EXPECT_TRUE(globMatch("*Events", "aeProcessEvents"));
  EXPECT_TRUE(globMatch("*", ""));
  EXPECT_TRUE(globMatch("Game::*(int)", "Game::tick(int)"));
  EXPECT_TRUE(globMatch("*/x", "a/b/x")); // '*' crosses '/'
  EXPECT_TRUE(globMatch("t?ck", "tick"));
  EXPECT_FALSE(globMatch("t?ck", "tck"));
  EXPECT_TRUE(globMatch("a*b*c", "aXXbYYbc"));
  EXPECT_FALSE(globMatch("a*b*c", "aXXbYYb"));
}

TEST(GlobTest, Classes) {
  EXPECT_TRUE(globMatch("f[0-9]", "f7"));
  EXPECT_FALSE(globMatch("f[0-9]", "fx"));
  EXPECT_TRUE(globMatch("f[^0-9]", "fx"));
  EXPECT_TRUE(globMatch("f[!0-9]", "fx"));
  EXPECT_FALSE(globMatch("f[!0-9]", "f1"));
  EXPECT_TRUE(globMatch("[]]", "]"));   // a first ']' is literal
  EXPECT_TRUE(globMatch("[^]]", "a]")); // "[^]" then ']', as GlobPattern reads it
  EXPECT_TRUE(globMatch("a[ ]", "a ")); // as the suggest: lines write a space
}

TEST(GlobTest, Braces) {
  EXPECT_TRUE(globMatch("{I_Sleep,SDL_Delay}", "SDL_Delay"));
  EXPECT_TRUE(globMatch("x{a,b}y{c,d}", "xbyc"));
  EXPECT_FALSE(globMatch("x{a,b}y", "xcy"));
  EXPECT_TRUE(globMatch("{a*,b}z", "aQQz"));
  EXPECT_TRUE(globMatch("a,}", "a,}")); // outside braces: literals
}

TEST(GlobTest, Escapes) {
  EXPECT_TRUE(globMatch("operator\\*", "operator*"));
  EXPECT_FALSE(globMatch("operator\\*", "operatorX"));
  EXPECT_TRUE(globMatch("f\\(\\)", "f()"));
  EXPECT_TRUE(globMatch("a\\{b", "a{b"));
}

TEST(GlobTest, Malformed) {
  EXPECT_TRUE(valid("a*b?[c-d]{e,f}"));
  EXPECT_FALSE(valid("a["));
  EXPECT_FALSE(valid("[]"));
  EXPECT_FALSE(valid("a\\"));
  EXPECT_FALSE(valid("{a"));
  EXPECT_FALSE(valid("{a}"));
  EXPECT_FALSE(valid("{a,{b,c}}"));
}
