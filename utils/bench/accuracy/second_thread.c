/* A spike on a second thread: worker_main -> worker_step -> decode, where
 * one decode of 2,000 spins 3 ms; the main thread meanwhile runs its own
 * short frames. */
#include "gt.h"

#include <pthread.h>

volatile int sink;

GT_NOINLINE void decode(int i, int slow) {
  for (int k = 0; k < 20; ++k)
    sink = sink + (i ^ k);
  if (slow)
    gt_spin_ns(3 * GT_MS);
}

GT_NOINLINE void worker_step(int i) {
  if (i == 1500) {
    long long t0 = gt_now();
    decode(i, 1);
    gt_spike("worker_main,worker_step,decode", t0, gt_now());
  } else {
    decode(i, 0);
  }
}

GT_NOINLINE void *worker_main(void *arg) {
  (void)arg;
  for (int i = 0; i < 2000; ++i)
    worker_step(i);
  return NULL;
}

GT_NOINLINE void main_frame(int n) {
  for (int k = 0; k < 100; ++k)
    sink = sink + k * n;
}

int main(int argc, char **argv) {
  gt_init();
  pthread_t t;
  pthread_create(&t, NULL, worker_main, NULL);
  for (int n = 0; n < 200; ++n) {
    main_frame(n);
    gt_sleep_ns(20000);
  }
  pthread_join(t, NULL);
  gt_write(argc, argv);
}
