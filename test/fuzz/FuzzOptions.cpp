//===- FuzzOptions.cpp - libFuzzer target: SPIKETRAP_OPTIONS parser -------===//
#include "spiketrap_flags.h"

#include <stdint.h>
#include <string.h>

using namespace __spiketrap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  char Text[8192];
  if (Size >= sizeof(Text))
    Size = sizeof(Text) - 1;
  memcpy(Text, Data, Size);
  Text[Size] = 0;
  Flags F;
  F.setDefaults();
  F.parse(Text);
  return 0;
}
