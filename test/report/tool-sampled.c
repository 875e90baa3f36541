// RUN: %clang -g -O2 -fPIC -shared %S/../runtime/Inputs/plain_lib.c -o %t.plain.so
// RUN: %clang %spiketrap -g -O2 %s %t.plain.so %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report=none:report_json=%t.d/a.json %run %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report=none:report_json=%t.d/b.json %run %t 1
// RUN: %spiketrap_report merge -o %t.d/ab.json %t.d/a.json %t.d/b.json
// RUN: %spiketrap_report validate %t.d/ab.json | FileCheck %s --check-prefix=VALID
// RUN: python3 %S/../runtime/Inputs/sampled.py %t.d/ab.json load_level | FileCheck %s --check-prefix=MERGED
// RUN: %spiketrap_report convert --to folded %t.d/ab.json | FileCheck %s --check-prefix=FOLDED
// RUN: %spiketrap_report export --format jsonl --rows spikes %t.d/ab.json | FileCheck %s --check-prefix=ROWS
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)

// spiketrap-report keeps the frames the samples found (sample=1): a merge
// maps their function ids with the rest (the second run's first spike is
// in a function the first run has not, so its ids differ), folded stacks
// go down to the sampled culprit, and fleet rows name the sampled chain and
// its counts.

#include "../Inputs/spin.h"

int plain_decode(int Size);

__attribute__((noinline)) int warm_up(int N) {
  spin_ns(30000000);
  return N + 1;
}
__attribute__((noinline)) int load_level(int N) { return plain_decode(N) + 1; }

int main(int argc, char **argv) {
  (void)argv;
  if (argc > 1)
    warm_up(argc);
  return load_level(100) > 0 ? 0 : 1;
}

// VALID: 1 valid, 0 invalid

// MERGED:      load_level > ~plain_decode [tool-sampled.c.tmp.plain.so] > ~decode_block [tool-sampled.c.tmp.plain.so] | culprit decode_block [tool-sampled.c.tmp.plain.so]: ok
// MERGED-NEXT: load_level > ~plain_decode [tool-sampled.c.tmp.plain.so] > ~decode_block [tool-sampled.c.tmp.plain.so] | culprit decode_block [tool-sampled.c.tmp.plain.so]: ok
// MERGED-NOT:  {{.}}

// FOLDED:      # spiketrap folded spike stacks (microseconds): 3 spikes, 0 dropped records
// FOLDED-NEXT: main;load_level;plain_decode;decode_block {{[0-9]{6,}$}}
// FOLDED-NEXT: main;warm_up {{[0-9]{5,}$}}
// FOLDED-NOT:  {{.}}

// ROWS:      "function":"load_level"
// ROWS-SAME: "sampled_functions":["plain_decode","decode_block"],"sampled_objects":["{{[^"]*}}tool-sampled.c.tmp.plain.so","{{[^"]*}}tool-sampled.c.tmp.plain.so"],"sampled_samples":{{[1-9][0-9]*}},"sampled_agree":{{[1-9][0-9]*}},"sampled_ns":{{[1-9][0-9]*}}
// ROWS:      "function":"load_level"
// ROWS-SAME: "sampled_functions":["plain_decode","decode_block"]
