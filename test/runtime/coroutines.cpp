// RUN: %clangxx %spiketrap_all -std=c++20 -g -O0 %s %rtlib -o %t.O0
// RUN: %run %t.O0 > %t.O0.out 2>&1
// RUN: FileCheck %s --check-prefix=CHUNK < %t.O0.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.O0.out
// RUN: %clangxx %spiketrap_all -std=c++20 -g -O2 %s %rtlib -o %t.O2
// RUN: %run %t.O2 > %t.O2.out 2>&1
// RUN: FileCheck %s --check-prefix=CHUNK < %t.O2.out
// RUN: FileCheck %s --check-prefix=AFTER < %t.O2.out

// C++20 coroutines compiled with the plugin: the split resume functions are
// instrumented like any other, a spike inside a coroutine body is reported
// under whoever resumed it, and suspending leaves the stack in sync.

#include "../Inputs/spin.h"
#include <coroutine>

struct Generator {
  struct promise_type {
    int Value = 0;
    Generator get_return_object() {
      return Generator{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int V) noexcept {
      Value = V;
      return {};
    }
    void return_void() {}
    void unhandled_exception() {}
  };
  std::coroutine_handle<promise_type> H;
  ~Generator() { H.destroy(); }
  bool next() {
    H.resume();
    return !H.done();
  }
};

__attribute__((noinline)) void load_chunk() { spin_ns(3000000); }

Generator chunks() {
  for (int I = 0; I < 5; ++I) {
    if (I == 3)
      load_chunk();
    co_yield I;
  }
}

__attribute__((noinline)) int consume() {
  int Sum = 0;
  Generator G = chunks();
  while (G.next())
    Sum += G.H.promise().Value;
  return Sum;
}
__attribute__((noinline)) void after() { spin_ns(3000000); }

int main() {
  int Sum = consume();
  after();
  return Sum == 10 ? 0 : 1;
}

// CHUNK: spike: {{.*}} in load_chunk()
// CHUNK: #{{[0-9]+}} consume()

// AFTER: spike: {{.*}} in after()
// AFTER-NEXT: thread main
// AFTER-NEXT: #0 main
// AFTER-NEXT: #1 after()
