// REQUIRES: no-sanitizer
// RUN: %clangxx %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: FileCheck %s --check-prefix=UNTIL < %t.err
// RUN: not grep -E 'spike: .* in wait_(for|until)_work' %t.err
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)
// Statically linked: idle-cxx-waits-static.cpp.

// A C++ job-system worker waiting for work with
// std::condition_variable::wait_for or wait_until (libstdc++ calls
// pthread_cond_clockwait on steady_clock from the program's own code)
// waits to be woken: idle, not a spike, however long it waits and however
// often its wait times out and starts again. A job that runs long on that
// worker is still a spike.

#include "../Inputs/spin.h"
#include "Inputs/job_queue.h"

using namespace std::chrono;

// Each wait for a job lasts 300 ms or more, in waits of 100 ms that time
// out and start again.
extern "C" __attribute__((noinline)) bool wait_for_work() {
  std::unique_lock<std::mutex> L(M);
  ++Waiting;
  while (!Jobs && !Quit)
    Cv.wait_for(L, milliseconds(100));
  if (!Jobs)
    return false;
  --Jobs;
  return true;
}

extern "C" __attribute__((noinline)) bool wait_until_work() {
  std::unique_lock<std::mutex> L(M);
  ++Waiting;
  while (!Jobs && !Quit)
    Cv.wait_until(L, steady_clock::now() + milliseconds(100));
  if (!Jobs)
    return false;
  --Jobs;
  return true;
}

extern "C" __attribute__((noinline)) void run_job() {
  spin_ns(150 * 1000000); // a real spike: 150 ms of CPU work
}

int main() {
  // The worker's loop is the thread's body (a lambda: std::thread's run
  // function, the thread's root, runs it inlined).
  std::thread T([] {
    for (int I = 0;; ++I) {
      if (!(I % 2 ? wait_until_work() : wait_for_work()))
        return;
      run_job();
    }
  });
  feed_jobs(T, 4);
  return 0;
}

// CHECK:      spike: {{.*}} in run_job ({{.*}}idle-cxx-waits.cpp:[[#]]), threshold 100.000 ms
// CHECK:      spiketrap: {{[0-9]+}} idle calls over their threshold not reported {{.*}}: {{(.*, )?}}wait_for_work 3 (worst {{[0-9.]+}} {{m?s}} in pthread_cond_clockwait)
// UNTIL:      spiketrap: {{[0-9]+}} idle calls over their threshold not reported {{.*}}: {{(.*, )?}}wait_until_work 2 (worst {{[0-9.]+}} {{m?s}} in pthread_cond_clockwait)
