// Built without the plugin (code nobody timed): runs until this thread has
// had Ms milliseconds of CPU, however long that takes.
#include <time.h>

static long cpuNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1000000000L + T.tv_nsec;
}

unsigned burn_cpu_ms(int Ms) {
  unsigned X = 1;
  long End = cpuNs() + Ms * 1000000L;
  do
    for (int I = 0; I < 20000; ++I) // most samples land here, not in the clock
      X = X * 1664525u + 1013904223u;
  while (cpuNs() < End);
  return X;
}
