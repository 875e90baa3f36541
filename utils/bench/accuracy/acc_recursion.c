/* Issue 24, category 6: a slow call deep in a recursion. Every frame walks
 * a 50-deep tree once on every thread (walk() calls itself: at -O2 it is
 * timed once, at its outermost call; at -O0 each level is, until adaptive
 * mode switches it off); in frame 210 on worker 1, the walk's level 37 of
 * 50 spends 3 ms. */
#include "frameloop.h"

/* The call of level 37, timed by its caller (the walk's way down and back
 * up, at -O0 with each level timed, is tens of microseconds). */
static long long slow_t0, slow_t1;

GT_NOINLINE unsigned walk(int depth, int slow) {
  if (depth == 50)
    return 1;
  long long t0 = slow && depth == 36 ? gt_now() : 0;
  unsigned r = walk(depth + 1, slow) * 3u + (unsigned)depth;
  if (t0) {
    slow_t0 = t0;
    slow_t1 = gt_now();
  }
  if (slow && depth == 37)
    FL_WORK(3 * GT_MS);
  return r + 1; /* not a tail call */
}

/* "frame,walk,walk,...": 38 levels of walk, depth 0 to 37. */
static char stack1[512];

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  int slow = thread == 1 && n == 210;
  fl_sink += walk(0, slow);
  if (slow) {
    char *p = stack1 + strlen(strcpy(stack1, FL_STACK(1, "walk")));
    for (int d = 1; d <= 37; ++d)
      p += strlen(strcpy(p, ",walk"));
    FL_SPIKE(stack1, slow_t0, slow_t1);
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
