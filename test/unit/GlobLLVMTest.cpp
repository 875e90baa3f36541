// The run-time lists' glob matcher against the compile-time lists' own:
// LLVM's GlobPattern, created as SpecialCaseList creates it (at most 1024
// brace expansions). Random patterns and names over the characters that
// mean something to either, from a fixed seed: the same validity and the
// same match for each, so one list means the same to the pass and the
// runtime.
#include "spiketrap_runlist.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"
#include <gtest/gtest.h>
#include <random>
#include <string>

namespace {

std::string randomText(std::mt19937 &R, const char *Alphabet, size_t MaxLen) {
  size_t N = strlen(Alphabet);
  std::string S(R() % (MaxLen + 1), ' ');
  for (char &C : S)
    C = Alphabet[R() % N];
  return S;
}

TEST(GlobLLVMTest, SameValidityAndMatches) {
  std::mt19937 R(34);
  unsigned Valid = 0, Matched = 0;
  for (int I = 0; I < 20000; ++I) {
    std::string Pat = randomText(R, "ab*?[]^!-{},\\", 9);
    auto Ref = llvm::GlobPattern::create(Pat, /*MaxSubPatterns=*/1024);
    const char *Why = nullptr;
    bool Ours = __spiketrap::globValid(Pat.c_str(), &Why);
    ASSERT_EQ(bool(Ref), Ours) << "pattern '" << Pat << "'";
    if (!Ref) {
      llvm::consumeError(Ref.takeError());
      continue;
    }
    ++Valid;
    for (int J = 0; J < 40; ++J) {
      std::string S = randomText(R, "ab-]^{},\\*", 7);
      bool M = Ref->match(S);
      ASSERT_EQ(M, __spiketrap::globMatch(Pat.c_str(), S.c_str()))
          << "pattern '" << Pat << "', name '" << S << "'";
      Matched += M;
    }
  }
  // The sample says something: both kinds of answer, often.
  EXPECT_GT(Valid, 4000u);
  EXPECT_GT(Matched, 4000u);
}

} // namespace
