// RUN: %clangxx %spiketrap_all -g -O1 -pthread %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s --implicit-check-not="spike: {{.*}} in worker" --implicit-check-not="spike: {{.*}} _M_run"

// A thread's start routine runs for the thread's whole life: like main, it
// is the root of the thread's stacks and never a spike of its own, whether
// pthread_create or std::thread starts it. What spiked below it is reported
// under it.

#include "../Inputs/spin.h"
#include <pthread.h>
#include <thread>

__attribute__((noinline)) void load_chunk() { spin_ns(3000000); }

void *worker(void *) {
  load_chunk();
  return nullptr;
}

int main() {
  pthread_t T;
  pthread_create(&T, nullptr, worker, nullptr);
  pthread_join(T, nullptr);
  std::thread([] { load_chunk(); }).join();
  return 0;
}

// Either thread's spike may come first (longest first). Not a count of
// spikes: a slow machine (qemu) may also see std::thread's own code spike.
// CHECK-DAG: #0 worker(void*) ({{.*}}thread-start-root.cpp:15){{$}}
// CHECK-DAG: #0 std::thread::_State_impl<{{.*}}>::_M_run() ({{.*}}){{$}}
// CHECK: spiketrap: {{[0-9]+}} spikes
