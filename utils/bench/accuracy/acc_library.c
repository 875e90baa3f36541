/* Issue 24, category 4: time in a library built without the plugin (a
 * vendor's codec, acc_library_lib.c, a shared object). Every frame
 * checksums 200 blocks with it; load_asset() decodes one asset through it
 * on worker 2 in frame 190, whose static decode_block runs 3 ms: named by
 * symbol (the library's own .symtab for the static one), below the
 * instrumented chain. */
#include "frameloop.h"

unsigned vendor_checksum(unsigned x);
unsigned vendor_decode(unsigned size, long long ns);

GT_NOINLINE unsigned load_asset(unsigned id, long long *t0, long long *t1) {
  unsigned header = id * 17u;
  *t0 = gt_now();
  unsigned r = vendor_decode(header, 3 * GT_MS);
  *t1 = gt_now();
  return r + header;
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int i = 0; i < 200; ++i)
    fl_sink += vendor_checksum((unsigned)(i + n));
  if (thread == 2 && n == 190) {
    long long t0, t1;
    fl_sink += load_asset(7u, &t0, &t1);
    FL_SPIKE(FL_STACK(2, "load_asset,vendor_decode,decode_block"), t0, t1);
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
