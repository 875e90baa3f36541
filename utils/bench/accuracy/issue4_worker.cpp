// Issue 11, case 4: a frame loop with a worker thread; one 2 ms spike whose
// reported duration is compared with the caller's measurement.
#include "gt.h"

#include <atomic>
#include <thread>

static std::atomic<bool> stop{false};
volatile int sink;

GT_NOINLINE void worker_job(int i) {
  for (int k = 0; k < 200; ++k)
    sink = sink + k * i;
}

GT_NOINLINE void worker_loop() {
  for (int i = 0; !stop.load(std::memory_order_relaxed); ++i) {
    worker_job(i);
    if (i % 64 == 0)
      gt_sleep_ns(50000);
  }
}

GT_NOINLINE void physics_step(int n) {
  for (int k = 0; k < 100; ++k)
    sink = sink + k * n;
  if (n == 300)
    gt_spin_ns(2 * GT_MS);
}

GT_NOINLINE void render(int n) {
  for (int k = 0; k < 300; ++k)
    sink = sink + k - n;
}

GT_NOINLINE void frame(int n) {
  long long t0 = gt_now();
  physics_step(n);
  if (n == 300)
    gt_spike("frame,physics_step", t0, gt_now());
  render(n);
}

int main(int argc, char **argv) {
  gt_init();
  gt_gray("worker_loop"); // runs as long as the program
  long long t0 = gt_now();
  std::thread worker(worker_loop);
  gt_observed("std::thread::thread", t0, gt_now());
  for (int n = 0; n < 500; ++n) {
    frame(n);
    gt_sleep_ns(100000);
  }
  stop = true;
  worker.join();
  gt_write(argc, argv);
}
