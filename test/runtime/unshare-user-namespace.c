// REQUIRES: userns
// UNSUPPORTED: sanitize-thread
// (ThreadSanitizer starts a thread of its own with the program's first)
// RUN: %clang %spiketrap_all -O1 %s %rtlib -o %t
// RUN: %run %t | FileCheck %s --check-prefix=DEFAULT
// RUN: env SPIKETRAP_OPTIONS=live_log=1 %run %t | FileCheck %s --check-prefix=THREAD
// RUN: env SPIKETRAP_OPTIONS=report_signal=USR1 %run %t | FileCheck %s --check-prefix=THREAD
// RUN: env SPIKETRAP_OPTIONS=hang_after=1s %run %t | FileCheck %s --check-prefix=DEFAULT

// unshare(CLONE_NEWUSER) needs a single-threaded process. The runtime's
// watcher thread (sampling, on by default; hang_after) ends for the call and
// starts again after it, so a sandbox that makes a user namespace works
// instrumented; live_log and report_signal each start a thread of their own
// before main, and then it fails (docs/robustness.md says so).

#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  int R = unshare(CLONE_NEWUSER);
  printf("unshare(CLONE_NEWUSER): %s\n", R ? strerror(errno) : "ok");
  return 0;
}

// DEFAULT: unshare(CLONE_NEWUSER): ok
// THREAD: unshare(CLONE_NEWUSER): Invalid argument
