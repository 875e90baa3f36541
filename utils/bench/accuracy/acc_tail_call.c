/* Issue 36, shape 2: a tail call keeps its caller on the stack. render()
 * calls draw() 40 times a frame (switched off early); draw's last act is a
 * call of spin() when it has work, which -O2 compiles to a jump. spin runs
 * only then (it stays timed): 3 ms once on worker 1 in frame 180. The stack
 * must read render > draw > spin. */
#include "frameloop.h"

GT_NOINLINE void spin(long long ns) { FL_WORK(ns); }

GT_NOINLINE void draw(long long ns, unsigned *acc) {
  for (int k = 0; k < 4; ++k)
    *acc = *acc * 3u + (unsigned)k;
  if (ns > 0)
    spin(ns);
}

GT_NOINLINE void render(int thread, int n) {
  unsigned acc = (unsigned)n;
  for (int i = 0; i < 40; ++i) {
    long long ns = thread == 1 && n == 180 && i == 20 ? 3 * GT_MS : 0;
    long long t0 = ns ? gt_now() : 0;
    draw(ns, &acc);
    if (t0)
      FL_SPIKE(FL_STACK(1, "render,draw,spin"), t0, gt_now());
  }
  fl_sink += acc;
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  render(thread, n);
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
