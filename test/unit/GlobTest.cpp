// The run-time lists' glob matcher (runtime/spiketrap_runlist.cpp): the
// syntax of LLVM's GlobPattern, which SpecialCaseList (the compile-time
// lists) uses, so one list means the same to the pass and the runtime.
#include "spiketrap_runlist.h"

#include <gtest/gtest.h>
#include <string>

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
  EXPECT_TRUE(globMatch("[]]", "]")); // a first ']' is literal
  EXPECT_TRUE(
      globMatch("[^]]", "a]")); // "[^]" then ']', as GlobPattern reads it
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

// Long runs of '*' and many '*'-separated pieces: the matcher neither
// recurses per '*' (a 1 MB run overflowed the stack) nor backtracks into
// earlier '*'s (4,000 '*'s, or 14 "(*a)" pieces, took forever on a name
// that almost matches).
TEST(GlobTest, LongStarRuns) {
  std::string Run(1 << 20, '*');
  EXPECT_TRUE(globMatch((Run + "x").c_str(), "abcx"));
  EXPECT_FALSE(globMatch((Run + "x").c_str(), "abcy"));
  EXPECT_TRUE(globMatch(Run.c_str(), ""));
  std::string Name(300, 'a');
  EXPECT_FALSE(globMatch((std::string(4000, '*') + "b").c_str(), Name.c_str()));
  std::string Many = "a";
  for (int I = 0; I < 4000; ++I)
    Many += "*a";
  EXPECT_FALSE(globMatch((Many + "b").c_str(), std::string(5000, 'a').c_str()));
  EXPECT_TRUE(
      globMatch((Many + "b").c_str(), (std::string(5000, 'a') + "b").c_str()));
  std::string Paren;
  for (int I = 0; I < 14; ++I)
    Paren += "(*a)";
  Paren += "*b";
  std::string Almost;
  for (int I = 0; I < 40; ++I)
    Almost += "(aaaa)";
  EXPECT_FALSE(globMatch(Paren.c_str(), Almost.c_str()));
  EXPECT_TRUE(globMatch(Paren.c_str(), (Almost + "b").c_str()));
}

TEST(GlobTest, BraceExpansions) {
  // Ten braces of two: 1024 expansions, the most GlobPattern takes.
  std::string Ten, Name;
  for (int I = 0; I < 10; ++I)
    Ten += "{a,b}*";
  for (int I = 0; I < 10; ++I)
    Name += "bxx";
  EXPECT_TRUE(globMatch(Ten.c_str(), Name.c_str()));
  EXPECT_FALSE(globMatch((Ten + "c").c_str(), Name.c_str()));
  EXPECT_TRUE(valid(Ten.c_str()));
  EXPECT_FALSE(valid((Ten + "{a,b}").c_str())); // 2048
  EXPECT_TRUE(globMatch("x{,a}", "x"));         // an empty alternative
  EXPECT_TRUE(globMatch("{[,]x,y}", ",x"));     // ',' in a class
  EXPECT_TRUE(globMatch("{a\\,b,c}", "a,b"));   // an escaped ','
  EXPECT_TRUE(globMatch("{a*,*b}{**c,d}", "zbd"));
}

TEST(GlobTest, ClassesAsGlobPattern) {
  // No escapes inside '[...]': a '\' is itself, and "\-z" a range.
  EXPECT_TRUE(globMatch("a[\\a]", "a\\"));
  EXPECT_TRUE(globMatch("a[a\\-z]", "ab"));
  EXPECT_FALSE(valid("[z-a]"));
  EXPECT_TRUE(globMatch("[a-]", "-"));
  EXPECT_TRUE(globMatch("[!]a]", "xa]"));
}
