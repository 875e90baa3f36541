// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=10ms %run %t 2>&1 | FileCheck %s

// kernel32's waits, caught in the program's import table: a wait for a
// lock another thread holds is a stall, the caller's spike with the wait
// named; a Sleep is idle, no spike (counted at the end).

#include <windows.h>

static CRITICAL_SECTION Cs;
static HANDLE Held;

static DWORD WINAPI holder(LPVOID Arg) {
  (void)Arg;
  EnterCriticalSection(&Cs);
  SetEvent(Held);
  Sleep(60);
  LeaveCriticalSection(&Cs);
  return 0;
}

__attribute__((noinline)) void cache_get(void) {
  EnterCriticalSection(&Cs);
  LeaveCriticalSection(&Cs);
}

__attribute__((noinline)) void frame_limiter(void) { Sleep(30); }

int main(void) {
  InitializeCriticalSection(&Cs);
  Held = CreateEventA(NULL, TRUE, FALSE, NULL);
  frame_limiter();
  HANDLE H = CreateThread(NULL, 0, holder, NULL, 0, NULL);
  WaitForSingleObject(Held, INFINITE);
  cache_get();
  WaitForSingleObject(H, INFINITE);
  return 0;
}

// CHECK:      spike: {{[0-9.]+}} ms in cache_get ({{.*}}waits.c:[[#]]), threshold 10.000 ms
// CHECK-NEXT:   thread main (tid {{[0-9]+}})
// CHECK:        #1  cache_get ({{.*}}waits.c:[[#]])
// CHECK-NEXT:         waited {{[0-9.]+}} ms in EnterCriticalSection from cache_get
// CHECK-NOT:  spike: {{.*}} in frame_limiter
// CHECK:      idle calls over their threshold not reported {{.*}}frame_limiter 1 (worst {{[0-9.]+}} ms in Sleep)
