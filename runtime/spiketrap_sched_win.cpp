//===- spiketrap_sched_win.cpp - How a thread ran, on Windows -------------===//
//
// The Scheduling section of spiketrap_platform.h on Windows: a thread's CPU
// time from GetThreadTimes (100 ns units). Windows keeps no run delay nor
// count of blocks a process may read without ETW and administrator rights:
// preemption is not measured there (the report says so).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <windows.h>

namespace __spiketrap {

const char *runDelayNeverWhy() {
  return "Windows keeps no run delay a process can read (ETW needs "
         "administrator rights)";
}

RunDelayRead threadRunDelayNs(uint32_t, uint64_t &Ns) {
  Ns = 0;
  return RunDelayRead::NotKept;
}

uint64_t threadBlockedCount(uint32_t) { return UINT64_MAX; }

uint64_t ownBlockedCount() { return UINT64_MAX; }

uint64_t threadCpuNsOf(uint32_t Tid) {
  HANDLE H = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, Tid);
  if (!H)
    return 0;
  FILETIME C, E, K, U;
  uint64_t Ns = 0;
  if (GetThreadTimes(H, &C, &E, &K, &U))
    Ns = ((uint64_t(K.dwHighDateTime) << 32 | K.dwLowDateTime) +
          (uint64_t(U.dwHighDateTime) << 32 | U.dwLowDateTime)) *
         100;
  CloseHandle(H);
  return Ns;
}

} // namespace __spiketrap
