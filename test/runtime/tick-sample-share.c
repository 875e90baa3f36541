// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user: thread CPU-clock timers never fire)
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1 %run %t 2>&1 | python3 %S/Inputs/tick_share.py 1
// RUN: env SPIKETRAP_OPTIONS=verbosity=1:sample_share=5 %run %t 2>&1 | python3 %S/Inputs/tick_share.py 5
// RUN: env SPIKETRAP_OPTIONS=sample_share=0 %run %t 2>&1 | FileCheck %s --check-prefix=BAD

// The sampler's ticks and samples cost a busy thread at most sample_share
// percent of its CPU time, as the handler measures it (its CPU clock, and
// the signal's round trip): one call open for 300 ms of work, sampled all
// along. (The check allows twice the share: the saved-up credit at the
// start is a share of 2 ms.) A share outside 1-50 is refused.

#include "../Inputs/spin.h"

__attribute__((noinline)) void work(void) { spin_ns(300000000); }

int main(void) {
  work();
  return 0;
}

// BAD: sample_share=0: not a percent from 1 to 50; 1 is used
