// RUN: %clangxx %spiketrap_all -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 2>&1 | FileCheck %s
// RUN: %clangxx %spiketrap_all -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 2>&1 | FileCheck %s

// C++ methods are reported by their demangled names; a spike that repeats on
// the same stack is reported once, with how often it happened. (The spike
// count is not checked: a loaded machine may preempt a tick past 1 ms.)

#include "../Inputs/spin.h"

namespace game {
struct World {
  __attribute__((noinline)) void stream(int Chunk) { spin_ns(2000000 + Chunk); }
  __attribute__((noinline)) void tick(int Frame) {
    if (Frame % 10 == 9)
      stream(Frame);
  }
};
} // namespace game

int main() {
  game::World W;
  for (int Frame = 0; Frame < 30; ++Frame)
    W.tick(Frame);
}

// CHECK: spike: {{[0-9.]+ m?s}} in game::World::stream(int) ({{.*}}spike-cpp.cpp:14), threshold 1.000 ms
// CHECK-NEXT: thread main {{.*}}; this stack spiked 3 times, the worst is shown
// CHECK-NEXT: #0 main ({{.*}}spike-cpp.cpp:22)
// CHECK-NEXT: #1 game::World::tick(int) ({{.*}}spike-cpp.cpp:15) {{[0-9.]+}} ms > 1.000 ms
// CHECK-NEXT: #2 game::World::stream(int) ({{.*}}spike-cpp.cpp:14) {{[0-9.]+}} ms > 1.000 ms
// CHECK: spiketrap: {{[0-9]+}} spikes, 34 instrumented calls
