/* Issue 36, shape 1: a signal handler's time is its own. The main thread
 * raises SIGUSR1 a dozen times a frame from inside a hot loop of frame()
 * (the switched-off hot functions run around it); the handler, installed
 * with sigaction, is fast every time but once: 3 ms in frame 150. The
 * spike is the handler's, under the interrupted stack; frame() must not be
 * blamed for it (its own time leaves the handler's out). */
#include "frameloop.h"

#include <signal.h>

static volatile sig_atomic_t SlowOnce;

GT_NOINLINE void on_usr1(int sig) {
  (void)sig;
  fl_sink += 1;
  if (SlowOnce) {
    FL_WORK(3 * GT_MS);
    SlowOnce = 0;
  }
}

static inline __attribute__((always_inline)) void inject(int thread, int n) {
  if (thread != 0)
    return;
  if (n == 0) {
    struct sigaction a;
    memset(&a, 0, sizeof a);
    a.sa_handler = on_usr1;
    sigaction(SIGUSR1, &a, NULL);
  }
  for (int i = 0; i < 12; ++i) {
    fl_sink += hot_a(fl_sink);
    long long t0 = 0;
    if (n == 150 && i == 6) {
      SlowOnce = 1;
      t0 = gt_now();
    }
    raise(SIGUSR1);
    if (t0)
      FL_SPIKE(FL_STACK(0, "on_usr1"), t0, gt_now());
  }
}

int main(int argc, char **argv) { return fl_main(argc, argv); }
