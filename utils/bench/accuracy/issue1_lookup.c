/* Issue 11, case 1: fast 15,000 times, then blocked once. lookup() is a
 * 30-iteration loop called 100 times per frame for 200 frames; its 15,001st
 * call also sleeps 3 ms. */
#include "gt.h"

volatile int table[64];

GT_NOINLINE int lookup(int key, int block) {
  int sum = 0;
  for (int i = 0; i < 30; ++i)
    sum += table[(key + i) & 63];
  if (block)
    gt_sleep_ns(3 * GT_MS);
  return sum;
}

GT_NOINLINE int frame(int n) {
  int sum = 0;
  for (int i = 0; i < 100; ++i) {
    if (n == 150 && i == 0) {
      long long t0 = gt_now();
      sum += lookup(i, 1);
      gt_spike("frame,lookup", t0, gt_now());
    } else {
      sum += lookup(i, 0);
    }
  }
  return sum;
}

int main(int argc, char **argv) {
  gt_init();
  int sum = 0;
  for (int n = 0; n < 200; ++n)
    sum += frame(n);
  gt_write(argc, argv);
  return sum == 12345;
}
