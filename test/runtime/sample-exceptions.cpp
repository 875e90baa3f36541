// RUN: %clangxx %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py --plain %t.json 'storm()' | FileCheck --check-prefix=JSON %s
// RUN: %clangxx %spiketrap_all -mllvm -spiketrap-switch=flag -g -O2 -pthread %s %rtlib -o %t.flag
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:report_json=%t.flag.json %run %t.flag 2> %t.flag.err
// RUN: FileCheck %s < %t.flag.err
// RUN: python3 %S/Inputs/sampled.py --plain %t.flag.json 'storm()' | FileCheck --check-prefix=JSON %s

// Two threads sampled while they throw and catch exceptions for a second:
// the samples that land in the unwinder (installing a landing pad, it
// rewrites its own frame's saved registers) are not unwound from there, so
// the program neither crashes nor reads code at a wrong return address
// (before, about one run in six of 400 ms ended in a SIGSEGV).

#include <pthread.h>
#include <stdexcept>
#include <time.h>

static thread_local volatile int Sink; // per thread: TSan runs this test too

static long long nowNs() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

__attribute__((noinline)) void thrower3(int I) {
  Sink = Sink + I;
  if (I >= 0)
    throw std::runtime_error("storm");
}
__attribute__((noinline)) void thrower2(int I) {
  thrower3(I);
  Sink = Sink + 1;
}
__attribute__((noinline)) void thrower1(int I) {
  thrower2(I);
  Sink = Sink + 1;
}

__attribute__((noinline)) int storm() {
  int Caught = 0;
  for (long long End = nowNs() + 1000000000; nowNs() < End;)
    for (int I = 0; I < 100; ++I) {
      try {
        thrower1(I);
      } catch (const std::exception &) {
        ++Caught;
      }
    }
  return Caught;
}

__attribute__((noinline)) void *worker(void *) {
  storm();
  return nullptr;
}

int main() {
  pthread_t T;
  pthread_create(&T, nullptr, worker, nullptr);
  int Caught = storm();
  pthread_join(T, nullptr);
  return Caught > 0 ? 0 : 1;
}

// The report was written at the end, and both threads' storms spiked: read
// from the JSON, since the text shows a stack's deepest spike and a loaded
// machine that preempts a thread while it throws makes a thrower's call
// spike too (a 40 ms thrower3 under storm: storm is then a frame of that
// spike, not a spike line of its own). Samples may name a thrower as the
// storm's culprit (then the storm's line goes on with " > thrower").
// CHECK: spiketrap: {{[0-9]+}} spikes
// JSON-DAG: {{^}}storm(){{ >| \|}}
// JSON-DAG: {{^}}worker(void*) > storm(){{ >| \|}}
