//===- FuzzJson.cpp - libFuzzer target: the JSON string escaper -----------===//
//
// Whatever the bytes, the escaper's output is one JSON string of valid UTF-8
// with no raw control character or '<' (it sits in the HTML's <script>).
//===----------------------------------------------------------------------===//
#include "spiketrap_report_formats.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

using namespace __spiketrap;

namespace {

// Returns the length of the well-formed UTF-8 sequence at P, or 0.
size_t utf8Len(const unsigned char *P, size_t N) {
  unsigned C = P[0];
  if (C < 0x80)
    return 1;
  size_t Len = C >= 0xf5 ? 0 : C >= 0xf0 ? 4 : C >= 0xe0 ? 3 : C >= 0xc2 ? 2 : 0;
  if (!Len || Len > N)
    return 0;
  uint32_t Cp = C & (0xff >> (Len + 1));
  for (size_t I = 1; I < Len; ++I) {
    if ((P[I] & 0xc0) != 0x80)
      return 0;
    Cp = Cp << 6 | (P[I] & 0x3f);
  }
  static const uint32_t Min[] = {0, 0, 0x80, 0x800, 0x10000};
  if (Cp < Min[Len] || Cp > 0x10ffff || (Cp >= 0xd800 && Cp <= 0xdfff))
    return 0;
  return Len;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  char *S = static_cast<char *>(malloc(Size + 1));
  memcpy(S, Data, Size);
  S[Size] = 0;
  Buffer B;
  jsonString(B, S);
  free(S);
  const unsigned char *P = reinterpret_cast<const unsigned char *>(B.data());
  size_t N = B.size();
  if (N < 2 || P[0] != '"' || P[N - 1] != '"')
    abort();
  for (size_t I = 1; I + 1 < N;) {
    if (P[I] < 0x20 || P[I] == '<')
      abort();
    if (P[I] == '\\') {
      if (I + 2 >= N)
        abort();
      I += P[I + 1] == 'u' ? 6 : 2;
      continue;
    }
    if (P[I] == '"')
      abort();
    size_t L = utf8Len(P + I, N - 1 - I);
    if (!L)
      abort();
    I += L;
  }
  return 0;
}
