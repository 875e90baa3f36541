/* The frame loop of issue 24's categories: the main thread and three workers
 * each run FL_FRAMES frames; a frame makes 2,000 calls of eight small hot
 * functions (adaptive mode switches them all off within ~20 frames) and then
 * runs the case's inject(thread, frame), which makes the case's calls and,
 * in a few frames long after the switch-off, its one-off spike. A frame is
 * ~0.1 ms of work and a 0.5 ms sleep.
 *
 * Near-threshold bait on thread 1 every 37 frames: bait() spends 0.85 ms in
 * a switched-off hot function and must not be reported. A frame the machine
 * made slow (half the threshold or more; it is ~0.1 ms) is recorded as
 * observed, unless the case injected a spike into it.
 *
 * Stacks in the ground truth start at the thread's entry: run_frames on the
 * main thread (main's callee), worker_main on the others (FL_STACK). The
 * functions on them are every function on the real call path, timed or not
 * (the report's stack is its timed levels and the frames sampling found).
 *
 * A case defines inject() (always inlined into frame(): no frame of its own)
 * and calls fl_main() from main(). */
#ifndef ACCURACY_FRAMELOOP_H
#define ACCURACY_FRAMELOOP_H

#include "gt.h"

#include <pthread.h>
#include <stdint.h>

/* The case's calls in thread's frame n (it defines it). */
static inline __attribute__((always_inline)) void inject(int thread, int n);

#ifdef __cplusplus
extern "C" {
#endif

enum { FL_THREADS = 4, FL_FRAMES = 300 };
static volatile unsigned fl_sink;
/* Set by inject() in a frame it puts a spike in. */
static __thread int fl_injected;

/* Compute-bound work for ns nanoseconds, inlined into the function that
 * must own the time: the clock is read every 4,096 steps, so the samples
 * land in that function's own code. */
#define FL_WORK(ns)                                                            \
  do {                                                                         \
    long long fl_end_ = gt_now() + (ns);                                       \
    unsigned fl_x_ = fl_sink;                                                  \
    do                                                                         \
      for (int fl_i_ = 0; fl_i_ < 4096; ++fl_i_)                               \
        fl_x_ = fl_x_ * 1664525u + 1013904223u;                                \
    while (gt_now() < fl_end_);                                                \
    fl_sink = fl_x_;                                                           \
  } while (0)

/* A spike the case injected into this frame (gt_spike). */
#define FL_SPIKE(stack, t0, t1)                                                \
  do {                                                                         \
    fl_injected = 1;                                                           \
    gt_spike((stack), (t0), (t1));                                             \
  } while (0)

/* The stack of a call made in thread's frame: tail is "f,g". */
#define FL_STACK(thread, tail)                                                 \
  ((thread) ? "worker_main,run_frames,frame," tail : "run_frames,frame," tail)

#define FL_HOT(name, mul)                                                      \
  GT_NOINLINE unsigned name(unsigned x) {                                      \
    for (int k = 0; k < 6; ++k)                                                \
      x = x * (mul) + (unsigned)k;                                             \
    return x;                                                                  \
  }
FL_HOT(hot_a, 3u)
FL_HOT(hot_b, 5u)
FL_HOT(hot_c, 7u)
FL_HOT(hot_d, 11u)
FL_HOT(hot_e, 13u)
FL_HOT(hot_f, 17u)
FL_HOT(hot_g, 19u)
FL_HOT(hot_h, 23u)

/* The bait's work: a hot function whose call now and then takes 0.85 ms. */
GT_NOINLINE unsigned hot_bait(unsigned x, int slow) {
  for (int k = 0; k < 6; ++k)
    x = x * 29u + (unsigned)k;
  if (slow)
    FL_WORK(850000);
  return x;
}

GT_NOINLINE void frame(int thread, int n) {
  unsigned s = (unsigned)n;
  for (int i = 0; i < 250; ++i)
    s = hot_h(hot_g(hot_f(hot_e(hot_d(hot_c(hot_b(hot_a(s))))))));
  fl_sink += s;
  inject(thread, n);
}

GT_NOINLINE void bait(void) { fl_sink += hot_bait(fl_sink, 1); }

GT_NOINLINE void run_frames(int thread) {
  for (int n = 0; n < FL_FRAMES; ++n) {
    long long t0 = gt_now();
    fl_injected = 0;
    frame(thread, n);
    if (!fl_injected)
      gt_observed(thread ? "worker_main,run_frames,frame" : "run_frames,frame",
                  t0, gt_now());
    if (thread == 1) {
      for (int i = 0; i < 300; ++i)
        fl_sink += hot_bait(fl_sink, 0);
      if (n % 37 == 20) {
        long long t0 = gt_now();
        bait();
        gt_near_miss("worker_main,run_frames,bait,hot_bait", t0, gt_now());
      }
    }
    gt_sleep_ns(500000);
  }
}

GT_NOINLINE void *worker_main(void *arg) {
  run_frames((int)(intptr_t)arg);
  return NULL;
}

static inline __attribute__((always_inline)) int fl_main(int argc,
                                                         char **argv) {
  gt_init();
  gt_gray("run_frames"); /* runs as long as its thread */
  pthread_t t[FL_THREADS];
  for (int i = 1; i < FL_THREADS; ++i)
    pthread_create(&t[i], NULL, worker_main, (void *)(intptr_t)i);
  run_frames(0);
  for (int i = 1; i < FL_THREADS; ++i)
    pthread_join(t[i], NULL);
  gt_write(argc, argv);
  return 0;
}

#ifdef __cplusplus
}
#endif

#endif
