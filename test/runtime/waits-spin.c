// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/waits.py %t.json compute --min-wait 0 --max-wait 20 | FileCheck %s --check-prefix=JSON
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A spike that computes for 60 ms was running, although the thread waited
// before and after it (outside the call): an uncontended lock inside it is
// no wait at all, and its one short read() of /dev/zero counts as the few
// microseconds it took (or the milliseconds the thread was preempted in it
// on a loaded machine: at most 20 ms of the 60 are accepted).

#include "../Inputs/spin.h"
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void nap(void) {
  struct timespec T = {0, 200 * 1000};
  nanosleep(&T, 0);
}

__attribute__((noinline)) int compute(void) {
  pthread_mutex_lock(&M); // uncontended: not a wait
  spin_ns(60 * 1000000);
  pthread_mutex_unlock(&M);
  char C;
  int Fd = open("/dev/zero", O_RDONLY);
  int N = (int)read(Fd, &C, 1); // returns at once
  close(Fd);
  return N;
}

int main(void) {
  nap();
  int N = compute();
  nap();
  return N == 1 ? 0 : 1;
}

// The pthread_mutex_lock, uncontended, is no wait; the read is a short one.
// CHECK: spike: {{.*}} in compute (
// CHECK-NEXT: thread main
// CHECK-NEXT: #0  main (
// CHECK-NEXT: #1  compute ({{.*}}waits-spin.c:{{[0-9]+}}) {{.*}} ms > 1.000 ms
// CHECK-NEXT: waited {{[0-9.]+}} {{[num]}}s in read from compute ({{.*}}waits-spin.c:{{[0-9]+}}); running {{[0-9.]+}} ms
// CHECK-NEXT: {{^(spike|suggest)}}
// JSON: compute: ok
