// RUN: %clangxx %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %clangxx %spiketrap_all -mllvm -spiketrap-switch=flag -g -O2 -pthread %s %rtlib -o %t.flag
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms:report_json=%t.flag.json %run %t.flag 2> %t.flag.err
// RUN: FileCheck %s < %t.flag.err

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

// Both threads' storms spiked, and the report was written at the end. (The
// summary may give a storm's row to a sampled culprit, thrower3: the spike
// lines name the call that spiked either way.)
// CHECK-COUNT-2: spike: {{[0-9.]+ s}} in storm()
// CHECK: spiketrap: {{[0-9]+}} spikes
