// Shared by the tests of every folder (lit looks for no tests in Inputs/).
// Busy-waits until this thread has run for the given time: a spike made of
// real CPU work. Always inlined, so even at -O0 the spike belongs to the
// caller.
#ifndef SPIN_H
#define SPIN_H
#include <time.h>
#ifdef _WIN32
// Windows counts a thread's CPU time in scheduler quanta (~15.6 ms): a
// short spin would last a quantum. Wall time there.
#undef CLOCK_THREAD_CPUTIME_ID
#define CLOCK_THREAD_CPUTIME_ID CLOCK_MONOTONIC
#endif
__attribute__((always_inline)) static inline void spin_ns(long ns) {
  struct timespec t0, t;
  volatile unsigned n = 0;
  // CPU time, not wall time: on a loaded machine (CI's is shared) a spin of
  // wall time could be mostly its thread waiting for a CPU, which the
  // report then labels preempted instead of blaming the spinning function.
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  do {
    // Mostly the caller's own instructions between clock reads (a system
    // call): a sample taken during the spin lands in the function that
    // spins, not in clock_gettime. A short spin stays short (~1 ns a turn).
    for (long i = 0; i < 10000 && i < ns / 200; ++i)
      n = n + 1;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < ns);
}
#endif
