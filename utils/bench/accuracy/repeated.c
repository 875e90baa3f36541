/* A spike repeated in a hot function: hot_repeat() is called 100,000 times
 * and cheap; five of its calls (one every 20,000) spin 3 ms. Shows whether
 * the later occurrences are caught as well as the first. */
#include "gt.h"

volatile int sink;

GT_NOINLINE int hot_repeat(int i, int slow) {
  int sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += (i ^ k) & 7;
  if (slow)
    gt_spin_ns(3 * GT_MS);
  return sum;
}

GT_NOINLINE int run_repeat(void) {
  int sum = 0;
  for (int i = 0; i < 100000; ++i) {
    if (i % 20000 == 10000) {
      long long t0 = gt_now();
      sum += hot_repeat(i, 1);
      gt_spike("run_repeat,hot_repeat", t0, gt_now());
    } else {
      sum += hot_repeat(i, 0);
    }
  }
  return sum;
}

int main(int argc, char **argv) {
  gt_init();
  sink = run_repeat();
  gt_write(argc, argv);
}
