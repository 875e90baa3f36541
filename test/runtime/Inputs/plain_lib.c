// A library built without the plugin (sample-library.c): an exported
// function and a static one that does the work, Size ms of it (of CPU
// time: on a loaded machine the call takes longer, and its time is still
// mostly work, not waiting for a CPU, which the report would call
// preempted and blame no code for).
#include <time.h>

static volatile unsigned Sink;

static long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

__attribute__((noinline)) static int decode_block(int Size) {
  long long End = nowNs() + Size * 1000000LL;
  unsigned X = 1;
  while (nowNs() < End)
    for (int I = 0; I < 10000; ++I) // mostly its own code, not the clock's
      Sink = X = X * 1664525u + 1013904223u;
  return (int)(X & 1);
}

int plain_decode(int Size) { return decode_block(Size) + (int)(Sink & 2); }
