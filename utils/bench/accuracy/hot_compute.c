/* A compute-bound rare spike in a hot function: hot() is called 100,000
 * times and is cheap; its 70,001st call spins 3 ms. */
#include "gt.h"

volatile int sink;

GT_NOINLINE int hot(int i, int slow) {
  int sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += (i ^ k) & 7;
  if (slow)
    gt_spin_ns(3 * GT_MS);
  return sum;
}

GT_NOINLINE int process(void) {
  int sum = 0;
  for (int i = 0; i < 100000; ++i) {
    if (i == 70000) {
      long long t0 = gt_now();
      sum += hot(i, 1);
      gt_spike("process,hot", t0, gt_now());
    } else {
      sum += hot(i, 0);
    }
  }
  return sum;
}

int main(int argc, char **argv) {
  gt_init();
  sink = process();
  gt_write(argc, argv);
}
