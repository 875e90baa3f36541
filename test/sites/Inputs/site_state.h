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

// Waits (up to 10 s: a loaded machine) for Fn's site to read Want: the
// runtime rewrites sites in batches, off the program's threads.
static inline const char *await_site(const void *Fn, const char *Want) {
  for (int I = 0; I < 10000 && strcmp(site_state(Fn), Want); ++I) {
    struct timespec T = {0, 1000000};
    nanosleep(&T, 0);
  }
  return site_state(Fn);
}
#endif
