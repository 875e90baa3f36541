// The instrumented program of utils/test-clickhouse.sh: a frame loop whose
// spikes are all made of 50+ ms of busy work against a 10 ms threshold, so
// no machine load decides what is a spike. Built twice: build A as it is,
// build B with -DREGRESSED (render got slow on every second frame, and a new
// call, stream_textures, spikes once per run under update).
#include "spiketrap.h"
#include <stdlib.h>
#include <time.h>

static void spin_ms(long ms) {
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do
    clock_gettime(CLOCK_MONOTONIC, &t);
  while ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L <
         ms);
}

__attribute__((noinline)) void load_asset(void) { spin_ms(60); }
#ifdef REGRESSED
__attribute__((noinline)) void stream_textures(void) { spin_ms(55); }
#endif

__attribute__((noinline)) void update(int frame) {
  if (frame % 3 == 0) // every third frame: in both builds
    load_asset();
#ifdef REGRESSED
  if (frame == 5)
    stream_textures();
#endif
}

__attribute__((noinline)) void render(int frame) {
#ifdef REGRESSED
  if (frame % 2 == 0)
    spin_ms(70);
#endif
  (void)frame;
}

__attribute__((noinline)) void tick(int frame) {
  update(frame);
  render(frame);
}

int main(int argc, char **argv) {
  int frames = argc > 1 ? atoi(argv[1]) : 12;
  for (int frame = 1; frame <= frames; ++frame) {
    spiketrap_frame_mark();
    tick(frame);
  }
  return 0;
}
