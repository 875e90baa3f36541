// Issue 36, shape 2: a switched-off caller stays on the stack. lookup() is
// called 250 times a frame on every thread (switched off early); on worker
// 2 in frame 150 it first reaches a function-local thread_local cache,
// whose constructor (timed: its first call) takes 3 ms. The stack must read
// frame > lookup > Cache::Cache, whether or not a sample saw lookup.
#include "frameloop.h"

struct Cache {
  unsigned Slots[64];
  GT_NOINLINE Cache() {
    for (unsigned &S : Slots)
      S = 1;
    FL_WORK(3 * GT_MS);
  }
};

GT_NOINLINE unsigned lookup(unsigned Key, bool Cached) {
  unsigned H = Key * 2654435761u;
  if (Cached) {
    static thread_local Cache C;
    H ^= C.Slots[H & 63];
  }
  return H;
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int I = 0; I < 250; ++I)
    fl_sink += lookup(unsigned(n * 250 + I), false);
  if (thread == 2 && n == 150) {
    long long T0 = gt_now();
    fl_sink += lookup(7u, true);
    FL_SPIKE(FL_STACK(2, "lookup,Cache::Cache"), T0, gt_now());
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
