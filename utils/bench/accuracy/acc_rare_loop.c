/* Issue 24, category 1: a hot function's one-off slow path is a loop it
 * runs only on some calls, in the shapes -O2 gives such loops (the guard
 * branches straight into the loop; a retry loop whose body is the common
 * path). lookup() and insert() are called 250 times a frame on every
 * thread (switched off early); lookup's key 7777 probes 3 ms on the main
 * thread in frame 150 (the loop's own test is the guard), and insert()
 * finds its table full and rehashes for 3 ms on worker 2 in frame 200. */
#include "frameloop.h"

enum { MAGIC = 7777 };
static unsigned table[64];

GT_NOINLINE unsigned lookup(unsigned key) {
  unsigned h = key * 2654435761u;
  while (key == MAGIC && h != 0) { /* the rare probe loop */
    FL_WORK(3 * GT_MS);
    h = 0;
  }
  return h ^ table[h & 63];
}

GT_NOINLINE void insert(unsigned key, int full) {
  table[key & 63] += key;
  if (full) { /* the rare rehash: a loop over the table until it fits */
    long long end = gt_now() + 3 * GT_MS;
    for (unsigned r = 0; gt_now() < end; ++r)
      for (int i = 0; i < 64; ++i)
        table[i] = table[i] * 31u + r;
  }
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int i = 0; i < 250; ++i) {
    fl_sink += lookup((unsigned)(n * 250 + i) % 5000u);
    insert((unsigned)i, 0);
  }
  if (thread == 0 && n == 150) {
    long long t0 = gt_now();
    fl_sink += lookup(MAGIC);
    FL_SPIKE(FL_STACK(0, "lookup"), t0, gt_now());
  }
  if (thread == 2 && n == 200) {
    long long t0 = gt_now();
    insert(5u, 1);
    FL_SPIKE(FL_STACK(2, "insert"), t0, gt_now());
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
