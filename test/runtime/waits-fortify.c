// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// (GCC builds the fortified part for the host only.)
// RUN: gcc -O2 -D_FORTIFY_SOURCE=2 -c %S/Inputs/fortified_read.c -o %t.fortified.o
// RUN: llvm-nm --undefined-only %t.fortified.o | FileCheck %s --check-prefix=FORTIFIED
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %t.fortified.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err
// RUN: python3 %S/Inputs/waits.py %t.json read_pipe --min-wait 40 --max-wait 2000 --max-running 30 --call __read_chk --from read_pipe | FileCheck %s

// A library built with _FORTIFY_SOURCE (distributions' default flags) reads
// through __read_chk: its wait for the pipe is seen too, from the timed call
// that called it.

#include "Inputs/late_pipe.h"


int fortified_read(int Fd, char *Out);

__attribute__((noinline)) int read_pipe(void) {
  char C = 0;
  return fortified_read(Pipe[0], &C) == 1 && C == 'x';
}

int main(void) {
  if (!start_late_writer())
    return 2;
  int Ok = read_pipe();
  join_late_writer();
  return Ok ? 0 : 1;
}

// FORTIFIED: __read_chk
// CHECK: read_pipe: ok
