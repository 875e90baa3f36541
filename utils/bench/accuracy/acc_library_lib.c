/* The vendor library of acc_library.c: built without the plugin, as a
 * shared object. */
#include <time.h>

static volatile unsigned lib_sink;

static long long lib_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

__attribute__((noinline)) static unsigned decode_block(unsigned size,
                                                       long long ns) {
  long long end = lib_now() + ns;
  unsigned x = size;
  do
    for (int i = 0; i < 4096; ++i)
      x = x * 1664525u + 1013904223u;
  while (lib_now() < end);
  return x;
}

unsigned vendor_checksum(unsigned x) {
  for (int k = 0; k < 6; ++k)
    x = x * 31u + (unsigned)k;
  return x;
}

unsigned vendor_decode(unsigned size, long long ns) {
  unsigned r = decode_block(size, ns);
  lib_sink = r;
  return r + 1;
}
