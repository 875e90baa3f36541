// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: %spiketrap_report run --suggest-list %t.d/s.txt -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: FileCheck %s < %t.d/s.txt

// Names and paths written into list files cannot add lines of their own
// (issue 13, finding 9): a function name with a newline is left out with a
// comment, and control characters in a comment's source path become '?'.
// (20 ms spins against the 1 ms threshold: on a loaded machine a 3 ms spin
// was sometimes mostly its thread waiting for a CPU, a spike that is not
// suggested.)

#include "../Inputs/spin.h"

void injected(void) __asm__("inj\n[never]\nfun:*");
__attribute__((noinline)) void injected(void) { spin_ns(20000000); }

#line 20 "inj\n[never]\nfun:*\n.c"
__attribute__((noinline)) void plain(void) { spin_ns(20000000); }

int main(void) {
  for (int i = 0; i < 4; ++i) {
    injected();
    plain();
  }
  return 0;
}

// TEXT-NOT: suggest: {{.*}}fun:inj
// CHECK:     # spiketrap suggestions
// CHECK-NOT: {{^\[never\]$}}
// CHECK-NOT: {{^fun:\*$}}
// CHECK:     # left out: a function whose name has a control character
// CHECK-NOT: {{^\[never\]$}}
// CHECK-NOT: {{^fun:\*$}}
