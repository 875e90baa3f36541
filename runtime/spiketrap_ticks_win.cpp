//===- spiketrap_ticks_win.cpp - The sampler's tick on Windows ------------===//
//
// The Ticks section of spiketrap_platform.h on Windows. Windows has no
// per-thread timer signal: its sampler will be the watcher suspending a
// spiking thread (SuspendThread, GetThreadContext) and is not built yet,
// so no tick is ever installed (tickInstallHandler gives 0: sampling off,
// as when the program takes every signal). What stays is the thread's CPU
// clock and the facts about the process the sampler's set-up asks for.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <windows.h>

namespace __spiketrap {

uint64_t tickThreadCpuNs() {
  FILETIME C, E, K, U;
  if (!GetThreadTimes(GetCurrentThread(), &C, &E, &K, &U))
    return 0;
  return ((uint64_t(K.dwHighDateTime) << 32 | K.dwLowDateTime) +
          (uint64_t(U.dwHighDateTime) << 32 | U.dwLowDateTime)) *
         100;
}

void tickNoteProcess() {}
bool tickInNotedProcess() { return true; } // no vfork
int tickInstallHandler(void (*)(int, siginfo_t *, void *), uint64_t *SignalNs) {
  *SignalNs = 0;
  return 0;
}
bool tickTimerCreate(uint32_t, int, int *) { return false; }
void tickTimerSet(int, uint64_t) {}
void tickTimerDelete(int) {}
bool tickFromOurTimer(const siginfo_t *) { return false; }
void tickPassOn(int, siginfo_t *, void *) {}
void tickUnblockFaults() {}
void tickBlock(int) {}
void tickTakePending(int) {}
void tickKeepUnblocked(int) {}
void tickAfterForkChild() {}
uintptr_t tickSignalFrameSize() { return 0; }
void tickFastClockCode(uintptr_t *, uintptr_t *) {}
// libgcc's SEH unwinder asks the OS (RtlLookupFunctionEntry): no lock of ours.
bool tickUnwindLockFree() { return true; }
bool tickUnderSanitizer() { return false; }
bool tickUnderValgrind() { return false; }
void *tickMapResident(size_t Size) {
  return VirtualAlloc(nullptr, Size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

} // namespace __spiketrap
