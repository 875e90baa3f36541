// What a patchable site holds now: "timed" (its entry jumps to the
// prefix), "off" (a NOP) or "?" (no site). Reads the function's first
// instruction, past its own landing pad (endbr64, bti c).
#ifndef SITE_STATE_H
#define SITE_STATE_H
#include <stdint.h>
#include <string.h>
#include <time.h>

static inline const char *site_state(const void *Fn) {
  const unsigned char *P = (const unsigned char *)Fn;
#if defined(__x86_64__)
  static const unsigned char Endbr64[] = {0xf3, 0x0f, 0x1e, 0xfa};
  if (!memcmp(P, Endbr64, 4))
    P += 4;
  if (P[0] == 0xeb)
    return "timed";
  if (P[0] == 0x66 && P[1] == 0x90)
    return "off";
#elif defined(__aarch64__)
  uint32_t W;
  memcpy(&W, P, 4);
  if (W == 0xd503245f) // bti c
    memcpy(&W, P + 4, 4);
  if ((W & 0xfc000000u) == 0x14000000u)
    return "timed";
  if (W == 0xd503201fu)
    return "off";
#endif
  return "?";
}

// Calls Call (which calls Fn) in rounds of 4096 until adaptive mode has
// switched Fn off and its site reads "off" (at most 200 rounds): on a loaded
// or emulated machine a preempted call may come near the threshold, and
// adaptive mode then waits for more calls before it decides.
// Not inlined: the functions it calls must have a caller that is not an
// ignored frame (main's callees stay timed: docs/selection.md).
static __attribute__((noinline)) const char *call_until_off(const void *Fn,
                                                            void (*Call)(int)) {
  for (int R = 0; R < 200 && strcmp(site_state(Fn), "off"); ++R)
    for (int I = 0; I < 4096; ++I)
      Call(I);
  return site_state(Fn);
}
#endif
