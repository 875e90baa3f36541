// An instrumented shared library: functions reached through each kind of
// trampoline (no arguments, integers, six of them, floating point), one
// that calls itself, one with a manual scope of the run-time API, and one
// that spins long enough to be a spike whenever a runtime times it.
#include <spiketrap.h>
#include <time.h>

static void spin_ms(long ms) {
  struct timespec a, b;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
  do
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
         ms * 1000000L);
}

static int Counter;
__attribute__((noinline)) void demo_tick(void) { ++Counter; }
__attribute__((noinline)) int demo_count(void) { return Counter; }
__attribute__((noinline)) long demo_add(long a, long b) { return a + b; }
__attribute__((noinline)) long demo_six(long a, long b, long c, long d, long e,
                                        long f) {
  return a - b + c * d - e + f;
}
__attribute__((noinline)) double demo_scale(double x, int n) {
  return x * n + 0.25;
}
__attribute__((noinline)) unsigned demo_fib(unsigned n) {
  return n < 2 ? n : demo_fib(n - 1) + demo_fib(n - 2);
}
__attribute__((noinline)) int demo_scoped(int x) {
  SPIKETRAP_FUNCTION();
  return x * 3;
}
__attribute__((noinline)) void demo_slow(void) { spin_ms(5); }
