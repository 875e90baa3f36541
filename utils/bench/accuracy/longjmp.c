/* Spikes right after a longjmp storm: 2,000 longjmps from three levels down
 * back to storm(), in batches of 200 (no exit hook runs for the frames they
 * skip), then victim() spins 3 ms and blocked_victim() sleeps 3 ms. */
#include "gt.h"

#include <setjmp.h>

volatile int sink;
static jmp_buf env;

GT_NOINLINE void jumper3(int i) {
  sink = sink + i;
  if (i >= 0)
    longjmp(env, 1);
}
GT_NOINLINE void jumper2(int i) { jumper3(i); sink = sink + 1; }
GT_NOINLINE void jumper1(int i) { jumper2(i); sink = sink + 1; }

GT_NOINLINE void storm(void) {
  for (volatile int i = 0; i < 200; ++i) {
    if (setjmp(env) == 0)
      jumper1(i);
    else
      sink = sink + 1;
  }
}

GT_NOINLINE void victim(void) { gt_spin_ns(3 * GT_MS); }
GT_NOINLINE void blocked_victim(void) { gt_sleep_ns(3 * GT_MS); }

/* Load can make a batch slow. */
GT_INLINE void storm_batch(void) {
  long long t0 = gt_now();
  storm();
  gt_observed("phase,storm", t0, gt_now());
}

GT_NOINLINE void phase(void) {
  for (int b = 0; b < 10; ++b) /* no batch nears the threshold */
    storm_batch();
  long long t0 = gt_now();
  victim();
  gt_spike("phase,victim", t0, gt_now());
  for (int b = 0; b < 10; ++b) /* no batch nears the threshold */
    storm_batch();
  t0 = gt_now();
  blocked_victim();
  gt_spike("phase,blocked_victim", t0, gt_now());
}

int main(int argc, char **argv) {
  gt_init();
  phase();
  gt_write(argc, argv);
}
