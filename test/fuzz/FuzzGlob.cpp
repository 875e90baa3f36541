//===- FuzzGlob.cpp - libFuzzer target: the run-time lists' globs ---------===//
//
// The runtime matches list= and ignore= globs itself (no LLVM at run time);
// the compiler's lists use LLVM's GlobPattern through SpecialCaseList. For
// any pattern and name: the same verdict on the pattern (valid or not, with
// SpecialCaseList's limit of 1024 brace expansions) and, when valid, the
// same match.
//
// Input: the pattern, a NUL, the name.
//===----------------------------------------------------------------------===//
#include "spiketrap_runlist.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/GlobPattern.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const char *Text = reinterpret_cast<const char *>(Data);
  const char *Nul = static_cast<const char *>(memchr(Text, 0, Size));
  std::string Pat(Text, Nul ? size_t(Nul - Text) : Size);
  std::string Name = Nul ? std::string(Nul + 1, Text + Size) : "";
  // A name is a C string to the runtime; GlobPattern's '/' also matches
  // '\' since LLVM 21 (for Windows paths), which function names never need.
  if (Name.find('\0') != std::string::npos ||
      Pat.find('/') != std::string::npos)
    return 0;
  auto Ref = llvm::GlobPattern::create(Pat, /*MaxSubPatterns=*/1024);
  __spiketrap::Glob G;
  const char *Why = nullptr;
  bool Ours = __spiketrap::globCompile(Pat.data(), Pat.size(), &G, &Why);
  if (bool(Ref) != Ours) {
    fprintf(stderr, "validity differs on '%s': LLVM %d, runtime %d (%s)\n",
            Pat.c_str(), bool(Ref), Ours, Why ? Why : "");
    abort();
  }
  if (!Ref) {
    llvm::consumeError(Ref.takeError());
    return 0;
  }
  bool M = __spiketrap::globMatch(G, Name.c_str());
  __spiketrap::globFree(&G);
  if (M != Ref->match(Name)) {
    fprintf(stderr, "match differs: '%s' ~ '%s': LLVM %d, runtime %d\n",
            Pat.c_str(), Name.c_str(), !M, M);
    abort();
  }
  return 0;
}
