// Spikes right after an exception storm: 2,000 exceptions thrown three
// levels down and caught in storm(), in batches of 200 (no exit hook runs
// for the frames they unwind), then victim() spins 3 ms and
// blocked_victim() sleeps 3 ms.
#include "gt.h"

#include <stdexcept>

volatile int sink;

GT_NOINLINE void thrower3(int i) {
  sink = sink + i;
  if (i >= 0)
    throw std::runtime_error("storm");
}
GT_NOINLINE void thrower2(int i) { thrower3(i); sink = sink + 1; }
GT_NOINLINE void thrower1(int i) { thrower2(i); sink = sink + 1; }

GT_NOINLINE void storm() {
  for (int i = 0; i < 200; ++i) {
    try {
      thrower1(i);
    } catch (const std::exception &) {
      sink = sink + 1;
    }
  }
}

GT_NOINLINE void victim() { gt_spin_ns(3 * GT_MS); }
GT_NOINLINE void blocked_victim() { gt_sleep_ns(3 * GT_MS); }

// The first throw loads the unwinder's tables: a batch may be slow.
GT_INLINE void storm_batch() {
  long long t0 = gt_now();
  storm();
  gt_observed("phase,storm", t0, gt_now());
}

GT_NOINLINE void phase() {
  for (int b = 0; b < 10; ++b) // no batch comes near the threshold
    storm_batch();
  long long t0 = gt_now();
  victim();
  gt_spike("phase,victim", t0, gt_now());
  for (int b = 0; b < 10; ++b) // no batch comes near the threshold
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
