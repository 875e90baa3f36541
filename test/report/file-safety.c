// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d && echo secret > %t.d/victim
// RUN: ln -s %t.d/victim %t.d/link
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.d/link %t 2>&1 | FileCheck %s --check-prefix=LINK
// RUN: FileCheck %s --check-prefix=VICTIM < %t.d/victim
// RUN: mkfifo %t.d/fifo
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.d/fifo %t 2>&1 | FileCheck %s --check-prefix=FIFO
// RUN: env SPIKETRAP_OPTIONS=report=%t.d/same:report_json=%t.d/same %t 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=TEXT < %t.d/same
// RUN: stat -c %%a %t.d/same | FileCheck %s --check-prefix=MODE
// RUN: bash -c 'trap "" XFSZ; ulimit -f 1; exec env SPIKETRAP_OPTIONS=report_json=%t.d/big.json %t' 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: ls %t.d | FileCheck %s --check-prefix=LS

// Report files (issue 13, findings 2 and 7): a symlink or FIFO at the path is
// refused, never followed or opened (a FIFO would block the exit); files are
// created 0600 through a temporary file renamed into place; a write error
// removes the partial file and the report goes to stderr; two options naming
// one file do not overwrite each other.

#include "../Inputs/spin.h"

__attribute__((noinline)) void hitch(void) { spin_ns(2000000); }

int main(void) {
  hitch();
  return 0;
}

// LINK: spiketrap: report_json: cannot write '{{.*}}link': it is a symbolic link; writing it to stderr
// LINK: "format":"spiketrap-report"
// VICTIM: secret
// FIFO: spiketrap: report_json: cannot write '{{.*}}fifo': it is not a regular file; writing it to stderr
// SAME: spiketrap: report_json: cannot write '{{.*}}same': another report option already wrote it; writing it to stderr
// SAME: hitch
// TEXT: ==== spiketrap report
// MODE: 600
// FULL: spiketrap: report_json: cannot write '{{.*}}big.json': writing it failed: File too large; writing it to stderr
// FULL: "format":"spiketrap-report"
// LS-NOT: tmp
// LS-NOT: big.json
