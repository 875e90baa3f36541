/* Issue 24, category 2: a hot function whose loop runs on every call, with
 * a trip count from its data: integrate() steps 8 particles on every call,
 * 100 calls a frame on every thread (switched off early); in frame 180 on
 * worker 1 one call gets a burst of particles and its usual loop runs for
 * 3 ms. No rare loop, no call below it: nothing but its own code. */
#include "frameloop.h"

static float pos[8], vel[8];

GT_NOINLINE void integrate(int count, long long until) {
  for (int i = 0; i < count || gt_now() < until; ++i) {
    int k = i & 7;
    for (int j = 0; j < 4; ++j) { /* the particle's step */
      vel[k] = vel[k] * 0.999f + 0.001f * (float)j;
      pos[k] += vel[k] * 0.016f;
    }
  }
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int i = 0; i < 100; ++i)
    integrate(8, 0);
  if (thread == 1 && n == 180) {
    long long t0 = gt_now();
    integrate(8, t0 + 3 * GT_MS);
    FL_SPIKE(FL_STACK(1, "integrate"), t0, gt_now());
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
