// RUN: %clangxx %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms %run %t 2>&1 | FileCheck %s

// Threads started every way a Windows program starts them register at
// their first hook, are told apart, and their spikes carry their stacks;
// threads that ended before the report are counted.

#include <process.h>
#include <thread>
#include <windows.h>

#include "../Inputs/spin.h"

__attribute__((noinline)) void slow(int Ms) { spin_ns(Ms * 1000000L); }
__attribute__((noinline)) void body(int Ms) { slow(Ms); }

static DWORD WINAPI viaCreateThread(LPVOID) {
  body(20);
  return 0;
}
static unsigned __stdcall viaBeginThreadEx(void *) {
  body(20);
  return 0;
}

int main() {
  HANDLE A = CreateThread(nullptr, 0, viaCreateThread, nullptr, 0, nullptr);
  WaitForSingleObject(A, INFINITE);
  HANDLE B = reinterpret_cast<HANDLE>(
      _beginthreadex(nullptr, 0, viaBeginThreadEx, nullptr, 0, nullptr));
  WaitForSingleObject(B, INFINITE);
  std::thread([] { body(20); }).join();
  CloseHandle(A);
  CloseHandle(B);
  return 0;
}

// CHECK:      3 {{.*}} slow(int) ({{.*}}threads.cpp:[[#]]) < body
// CHECK-NOT:  thread ? (
// CHECK-DAG:    #0  viaCreateThread(void*) ({{.*}}threads.cpp:[[#]])
// CHECK-DAG:    #0  viaBeginThreadEx(void*) ({{.*}}threads.cpp:[[#]])
// CHECK-DAG:    #0  std::thread::_State_impl<{{.*}}>::_M_run() 
// CHECK:      spiketrap: {{[0-9]+}} spikes, {{[0-9]+}} instrumented calls, 4 threads
