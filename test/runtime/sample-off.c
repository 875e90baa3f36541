// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=sample=0:report_json=%t.json %run %t | FileCheck %s --check-prefix=OFF
// RUN: python3 %S/Inputs/sampled.py %t.json | FileCheck %s --check-prefix=JSON
// RUN: %run %t 2>/dev/null | FileCheck %s --check-prefix=ON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (qemu-user runs a thread of its own)

// sample=0: no watcher thread (without hang_after=), and no sampling. By
// default the watcher and the reader (the /proc files' reader) run.

#include "../Inputs/spin.h"
#include <dirent.h>
#include <stdio.h>

static int threads(void) {
  int N = 0;
  DIR *D = opendir("/proc/self/task");
  for (struct dirent *E; D && (E = readdir(D));)
    N += E->d_name[0] != '.';
  if (D)
    closedir(D);
  return N;
}

__attribute__((noinline)) void work(void) { spin_ns(20000000); }

int main(void) {
  work();
  printf("threads: %d\n", threads());
  return 0;
}

// OFF: threads: 1
// JSON: work | not sampled
// ON: threads: 3
