// Issue 24, category 7: a call that throws. Every frame parses 200 packets
// with parse_packet (switched off early); in frame 230 on the main thread
// one malformed packet makes it search for 3 ms and then throw; the frame
// catches it. The call ended by the exception, not by a return.
#include "frameloop.h"

#include <stdexcept>

GT_NOINLINE unsigned parse_packet(unsigned P, bool Malformed) {
  for (int K = 0; K < 6; ++K)
    P = P * 13u + unsigned(K);
  if (Malformed) {
    FL_WORK(3 * GT_MS);
    throw std::runtime_error("malformed packet");
  }
  return P;
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  for (int I = 0; I < 200; ++I)
    fl_sink += parse_packet(unsigned(I + n), false);
  if (thread == 0 && n == 230) {
    long long T0 = gt_now();
    try {
      fl_sink += parse_packet(1u, true);
    } catch (const std::exception &) {
      FL_SPIKE(FL_STACK(0, "parse_packet"), T0, gt_now());
    }
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
