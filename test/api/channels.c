// RUN: %clang %spiketrap_all -mllvm -spiketrap-list=%S/Inputs/channels.txt -O1 -g %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: env SPIKETRAP_OPTIONS=disable_channels=audio+net %run %t 2>&1 | FileCheck %s --check-prefix=OFF

// Channels: audio_mix is in "audio" by attribute, net_poll in "net" by a
// list section. Disabled at start-up, neither is reported, but their callee
// decode still is, under them; the program then enables "audio" at run time
// and its second call is reported.

#include "../e2e/Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void decode(void) { spin_ns(3000000); }

SPIKETRAP_CHANNEL("audio") __attribute__((noinline)) void audio_mix(int Ms) {
  spin_ns(Ms * 1000000L);
}

__attribute__((noinline)) void net_poll(void) {
  spin_ns(5000000);
  decode();
}

int main(void) {
  audio_mix(5);
  net_poll();
  SPIKETRAP_SET_CHANNEL_ENABLED("audio", 1);
  audio_mix(20);
  return 0;
}

// ALL: spiketrap: 4 spikes
// OFF-NOT: in net_poll (
// OFF: spike: {{[0-9.]+}} ms in audio_mix
// OFF: spike: {{[0-9.]+}} ms in decode
// OFF-NEXT: thread main
// OFF-NEXT: #0 main
// OFF-NEXT: #1 net_poll
// OFF-NEXT: #2 decode
// OFF: spiketrap: 2 spikes
