// Issue 11, case 2: a small wrapper that blocks. load_asset() is a few IR
// instructions around a blocking read (gt_sleep_ns); tick() calls it every
// frame for a few microseconds and once for 4 ms.
#include "gt.h"

GT_NOINLINE void load_asset(double us) {
  gt_sleep_ns(static_cast<long long>(us * 1000));
}

volatile int state;

GT_NOINLINE void tick(int n) {
  for (int i = 0; i < 50; ++i)
    state = state + i;
  if (n == 50) {
    long long t0 = gt_now();
    load_asset(4000);
    gt_spike("tick,load_asset", t0, gt_now());
  } else {
    long long t0 = gt_now();
    load_asset(5);
    gt_observed("tick,load_asset", t0, gt_now());
  }
}

int main(int argc, char **argv) {
  gt_init();
  for (int n = 0; n < 100; ++n)
    tick(n);
  gt_write(argc, argv);
}
