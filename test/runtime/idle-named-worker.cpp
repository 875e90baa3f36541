// REQUIRES: no-sanitizer
// RUN: %clangxx %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t 2> %t.err
// RUN: FileCheck %s --implicit-check-not='spike: {{.*}} in wait_for_job' --implicit-check-not='spike: {{.*}} in worker' < %t.err
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A worker loop that is a named function given to std::thread waits for its
// jobs as a lambda's loop does: idle, after every job as before the first.
// std::thread's run function only calls it through a pointer, so the pass
// leaves that function untimed and the loop is its thread's first timed
// call: the root, as the lambda's body is (idle-cxx-waits.cpp). Timed, the
// run function was the root and the loop a call under it that ran every
// job: after the first (10 ms, over 1/20 of the threshold), each wait for
// the next one counted as a stall, a spike of wait_for_job. A job that runs
// long is still a spike, under the loop.

#include "../Inputs/spin.h"
#include "Inputs/job_queue.h"

static int Done; // jobs run

__attribute__((noinline)) bool wait_for_job() {
  std::unique_lock<std::mutex> L(M);
  ++Waiting;
  while (!Jobs && !Quit)
    Cv.wait(L);
  if (!Jobs)
    return false;
  --Jobs;
  return true;
}

// The last of four jobs is long: a real spike (150 ms of CPU work).
__attribute__((noinline)) void run_job() {
  spin_ns(++Done < 4 ? 10 * 1000000 : 150 * 1000000);
}

void worker() {
  while (wait_for_job())
    run_job();
}

int main() {
  std::thread T(worker);
  feed_jobs(T, 4);
  return 0;
}

// CHECK:      spike: {{.*}} in run_job() ({{.*}}idle-named-worker.cpp:[[#]]), threshold 100.000 ms
// CHECK-NEXT:   thread
// CHECK-NEXT:   #0 worker() ({{.*}}idle-named-worker.cpp:[[#]]){{$}}
// CHECK-NEXT:   #1 run_job()
// Every wait, the four after a job too.
// CHECK: spiketrap: {{[0-9]+}} idle calls over their threshold not reported {{.*}}: {{(.*, )?}}wait_for_job() 5 (worst {{[0-9.]+}} {{m?s}} in pthread_cond_wait)
