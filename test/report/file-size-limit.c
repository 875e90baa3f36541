// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env SPIKETRAP_OPTIONS=threshold=100us:report=none:report_json=%t.d/r.json sh -c '(ulimit -f 8; %run %t > %t.d/out; echo "status $?") 2>&1 | cat' > %t.err
// RUN: FileCheck %s < %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.d/out
// RUN: ls %t.d | FileCheck %s --check-prefix=LS

// A file size limit (RLIMIT_FSIZE) smaller than the report: the write past
// it raises SIGXFSZ, which killed the program at exit (status 153), lost its
// unflushed output and left the temporary file. Now the write fails, the
// report goes to stderr, and the program exits as it would have.

#include <stdio.h>

#include "../e2e/Inputs/spin.h"

__attribute__((noinline)) void hitch(void) { spin_ns(110000); }

// CHECK: spiketrap: report_json: cannot write '{{.*}}r.json': writing it failed: File too large; writing it to stderr
// CHECK: "format":"spiketrap-report"
// CHECK: status 0
// OUT: buffered output of the program
// LS: out
// LS-NOT: r.json
int main(void) {
  printf("buffered output of the program\n");
  for (int I = 0; I < 1000; ++I)
    hitch();
  return 0;
}
