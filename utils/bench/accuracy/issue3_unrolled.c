/* Issue 11, case 3: a caller whose loop was unrolled. slow_path() calls
 * spin_ms(1.0) three times in a loop (unrolled at -O2); update() calls it
 * once in 100 frames. spin_ms's own calls sit at the threshold itself. */
#include "gt.h"

GT_NOINLINE void spin_ms(double ms) { gt_spin_ns((long long)(ms * GT_MS)); }

GT_NOINLINE void slow_path(void) {
  for (int i = 0; i < 3; ++i)
    spin_ms(1.0);
}

volatile int state;

GT_NOINLINE void update(int n) {
  for (int i = 0; i < 50; ++i)
    state = state + i;
  if (n == 50) {
    long long t0 = gt_now();
    slow_path();
    gt_spike("update,slow_path", t0, gt_now());
  } else {
    spin_ms(0.01);
  }
}

int main(int argc, char **argv) {
  gt_init();
  gt_gray("spin_ms");
  for (int n = 0; n < 100; ++n)
    update(n);
  gt_write(argc, argv);
}
