//===- SortTest.cpp - The report's one sort -------------------------------===//
#include "spiketrap_array.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdint.h>
#include <vector>

using namespace __spiketrap;

namespace {

struct Wide { // an element wider than a word, as the report's are
  uint64_t Key;
  char Pad[40];
};

TEST(Sort, SortsEverySizeAsStdSortDoes) {
  uint64_t Seed = 12345;
  for (size_t N : {0, 1, 2, 3, 16, 17, 100, 1000}) {
    std::vector<uint64_t> V(N);
    std::vector<Wide> W(N);
    for (size_t I = 0; I < N; ++I) {
      Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
      V[I] = Seed >> 54; // duplicates too
      W[I] = {V[I] ^ 0x5a, {}};
    }
    std::vector<uint64_t> Want = V;
    std::sort(Want.begin(), Want.end());
    sortBy(V.data(), V.data() + N, [](uint64_t A, uint64_t B) { return A < B; });
    EXPECT_EQ(V, Want) << N;
    sortBy(W.data(), W.data() + N,
           [](const Wide &A, const Wide &B) { return A.Key > B.Key; });
    EXPECT_TRUE(std::is_sorted(W.begin(), W.end(), [](const Wide &A,
                                                      const Wide &B) {
      return A.Key > B.Key;
    })) << N;
  }
}

} // namespace
