// Compiled without the plugin (runtime/signal-handler-spike.c): a signal
// handler the pass never saw, which only the runtime's trampoline times.
#include "../../Inputs/spin.h"

volatile int PlainSlow;

void plain_handler(int Sig) {
  (void)Sig;
  spin_ns(PlainSlow ? 150000000 : 1000);
}
