// RUN: %clang %spiketrap_all -mllvm -spiketrap-list=%S/Inputs/channels.txt -O1 -g %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: env SPIKETRAP_OPTIONS=disable_channels=audio+net %run %t > %t.off 2>&1
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// RUN: FileCheck %s --check-prefix=AUDIO < %t.off
// RUN: FileCheck %s --check-prefix=DECODE < %t.off

// Channels: audio_mix is in "audio" by attribute, net_poll in "net" by a
// list section. Disabled at start-up, neither is reported, but their callee
// decode still is, under them; the program then enables "audio" at run time
// and its second call is reported.

#include "../Inputs/spin.h"
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
// The report lists stacks worst first: on a loaded machine decode may come
// before audio_mix.
// OFF-NOT: in net_poll (
// OFF: spiketrap: 2 spikes
// AUDIO: spike: {{[0-9.]+ m?s}} in audio_mix
// DECODE: spike: {{[0-9.]+ m?s}} in decode
// DECODE-NEXT: thread main
// DECODE-NEXT: #0 main
// DECODE-NEXT: #1 net_poll
// DECODE-NEXT: #2 decode
