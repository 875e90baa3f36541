/* Spikes below an ignored function and below a channel-disabled one:
 * dispatcher() is SPIKETRAP_IGNORE, mixer() is in channel "audio", which
 * the program disables at run time. Their callees spike 3 ms and must be
 * reported with the whole stack; dispatcher and mixer must not be. */
#include "gt.h"

volatile int sink;

GT_NOINLINE void handler(int n) {
  for (int k = 0; k < 20; ++k)
    sink = sink + k * n;
  if (n == 30)
    gt_spin_ns(3 * GT_MS);
}

SPIKETRAP_IGNORE GT_NOINLINE void dispatcher(int n) {
  long long t0 = gt_now();
  handler(n);
  if (n == 30)
    gt_spike("dispatcher,handler", t0, gt_now());
}

GT_NOINLINE void decode_block(int n) {
  for (int k = 0; k < 20; ++k)
    sink = sink + k * n;
  if (n == 60)
    gt_sleep_ns(3 * GT_MS);
}

SPIKETRAP_CHANNEL("audio") GT_NOINLINE void mixer(int n) {
  long long t0 = gt_now();
  decode_block(n);
  if (n == 60)
    gt_spike("mixer,decode_block", t0, gt_now());
}

int main(int argc, char **argv) {
  gt_init();
  gt_never_report("dispatcher");
  gt_never_report("mixer");
  SPIKETRAP_SET_CHANNEL_ENABLED("audio", 0);
  for (int n = 0; n < 100; ++n) {
    dispatcher(n);
    mixer(n);
  }
  gt_write(argc, argv);
}
