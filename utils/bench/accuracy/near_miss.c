/* Near misses that must not be reported: tick() calls near_spin() (spins
 * 0.9 ms) and near_sleep() (sleeps 0.8 ms, ~0.85 ms with the kernel's
 * slack) five times each; nothing else comes near the threshold. A near
 * miss that the caller measured at or over the threshold (the machine was
 * busy) is not held against the report. */
#include "gt.h"

volatile int sink;

GT_NOINLINE void near_spin(void) { gt_spin_ns(900000); }
GT_NOINLINE void near_sleep(void) { gt_sleep_ns(800000); }

GT_NOINLINE void tick(int n) {
  for (int k = 0; k < 50; ++k)
    sink = sink + k * n;
  if (n % 20 == 10) {
    long long t0 = gt_now();
    near_spin();
    gt_near_miss("tick,near_spin", t0, gt_now());
  } else if (n % 20 == 0) {
    long long t0 = gt_now();
    near_sleep();
    gt_near_miss("tick,near_sleep", t0, gt_now());
  }
}

int main(int argc, char **argv) {
  gt_init();
  for (int n = 0; n < 100; ++n)
    tick(n);
  gt_write(argc, argv);
}
