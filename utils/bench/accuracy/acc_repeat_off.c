/* Issue 36, shape 3: every slow call counts. insert() is called 250 times
 * a frame on every thread (switched off early); on the main thread in
 * frame 200, rebuild() (timed: it runs once) makes three slow calls of it,
 * 1.5, 2.0 and 2.5 ms, among cheap ones. Three spikes of insert, each under
 * rebuild, not one spike of rebuild. */
#include "frameloop.h"

static unsigned table[64];

GT_NOINLINE void insert(unsigned key, long long slow_ns) {
  table[key & 63] += key;
  if (slow_ns) { /* the rare rehash */
    long long end = gt_now() + slow_ns;
    for (unsigned r = 0; gt_now() < end; ++r)
      for (int i = 0; i < 64; ++i)
        table[i] = table[i] * 31u + r;
  }
}

GT_NOINLINE void rebuild(void) {
  static const long long slow[3] = {1500000, 2000000, 2500000};
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 100; ++i)
      insert((unsigned)i, 0);
    long long t0 = gt_now();
    insert(5u, slow[k]);
    FL_SPIKE(FL_STACK(0, "rebuild,insert"), t0, gt_now());
  }
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int i = 0; i < 250; ++i)
    insert((unsigned)i, 0);
  if (thread == 0 && n == 200)
    rebuild();
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
