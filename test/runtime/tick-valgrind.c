// REQUIRES: valgrind, no-sanitizer
// RUN: %clang %spiketrap -gdwarf-4 -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=verbosity=1 valgrind -q %t 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOG < %t.err

// Under valgrind (its core preloads its own library) the runtime does not
// sample: valgrind's signals and thread CPU clocks are its own, and a tick
// there interrupted even the interposed sleeps. (-gdwarf-4: valgrind 3.19
// gives up on DWARF 5.)

#include "../Inputs/spin.h"
#include <errno.h>
#include <stdio.h>
#include <time.h>

__attribute__((noinline)) int naps(void) {
  int Interrupted = 0;
  for (int I = 0; I < 20; ++I) {
    spin_ns(2000000);
    struct timespec T = {0, 20000000};
    if (nanosleep(&T, 0) != 0 && errno == EINTR)
      ++Interrupted;
  }
  return Interrupted;
}

int main(void) {
  printf("%d interrupted\n", naps());
  return 0;
}

// CHECK: 0 interrupted
// LOG: sample=1: under valgrind {{.*}}; no sampling
