// Shared by the tests of every folder (lit looks for no tests in Inputs/).
// Busy-waits for the given time: a spike made of real CPU work. Always
// inlined, so even at -O0 the spike belongs to the caller.
#ifndef SPIN_H
#define SPIN_H
#include <time.h>
__attribute__((always_inline)) static inline void spin_ns(long ns) {
  struct timespec t0, t;
  volatile unsigned n = 0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do {
    // Mostly the caller's own instructions between clock reads: a sample
    // taken during the spin lands in the function that spins, not in
    // clock_gettime (named as the culprit when most samples agree on it).
    for (int i = 0; i < 1000; ++i)
      n = n + 1;
    clock_gettime(CLOCK_MONOTONIC, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < ns);
}
#endif
