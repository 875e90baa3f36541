// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env SPIKETRAP_OPTIONS=report=%t.dir/r.%%p.txt %run %t > %t.pids
// RUN: sh -c 'FileCheck %s --check-prefix=SPIKY < %t.dir/r.$(grep spiky %t.pids | cut -d" " -f2).txt'
// RUN: sh -c 'test ! -e %t.dir/r.$(grep quiet %t.pids | cut -d" " -f2).txt'
// RUN: env SPIKETRAP_OPTIONS=report=stderr %run %t 2> %t.err > /dev/null
// RUN: FileCheck %s --check-prefix=STDERR < %t.err
// UNSUPPORTED: sanitize-address, sanitize-thread, windows
// (Windows: Windows has no fork.)
// (a sanitizer's own _exit interceptor is linked first: docs/robustness.md)

// A forked child that leaves through _exit (a fork-based server's worker,
// Redis's BGSAVE child) writes its report when it spiked, to its own path
// through %p; a child that leaves through _exit without a spike writes
// nothing, not even an empty file, and says nothing on stderr.

#include "../Inputs/spin.h"
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void child_save(void) { spin_ns(3000000); }

__attribute__((noinline)) void fork_child(int Spike, const char *Name) {
  fflush(stdout);
  pid_t Child = fork();
  if (Child == 0) {
    printf("%s %d\n", Name, getpid());
    fflush(stdout);
    if (Spike)
      child_save();
    _exit(0);
  }
  waitpid(Child, 0, 0);
}

int main(void) {
  fork_child(1, "spiky");
  fork_child(0, "quiet");
  return 0;
}

// SPIKY: spike: {{.*}} in child_save
// SPIKY: #2 child_save
// SPIKY: spiketrap: 1 spikes

// On stderr: the spiking child's report, then the parent's (its waitpid
// is a stall); the quiet child's would be a third.
// STDERR: ==== spiketrap report
// STDERR-NEXT: spikes
// STDERR-NEXT: child_save
// STDERR: ==== spiketrap report
// STDERR-NOT: child_save
// STDERR-NOT: ==== spiketrap report
