// The program behind real.json and real2.json, the report tool's unit test
// fixtures (make_fixtures.sh): frames, a message, recent calls, a spike
// inside a spike, a wait in an interposed call, a hang the watchdog saw and
// a thread still in a call at exit.

#include "spiketrap.h"
#include <pthread.h>
#include <time.h>

static void spin_ms(long ms) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do
    clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}
// Inlined: no instrumented call while the watchdog looks.
__attribute__((always_inline)) static inline void nap(long ms) {
  struct timespec T = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&T, 0);
}

__attribute__((noinline)) void step(void) { spin_ms(0); }
__attribute__((noinline)) void read_pak(void) { nap(15); }
__attribute__((noinline)) void load_asset(int frame) {
  SPIKETRAP_MESSAGEF("asset %d", frame);
  step();
  read_pak();
  spin_ms(5);
}
__attribute__((noinline)) void tick(int frame) {
  step();
  if (frame == 2)
    load_asset(frame);
}
__attribute__((noinline)) void stuck(void) { nap(300); }
__attribute__((noinline)) void *forever(void *arg) {
  for (;;)
    nap(1000);
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, forever, 0);
  for (int frame = 1; frame <= 3; ++frame) {
    spiketrap_frame_mark();
    tick(frame);
  }
  stuck();
  return 0;
}
