//===- spiketrap_ticks_win.cpp - The sampler's tick on Windows ------------===//
//
// The Ticks section of spiketrap_platform.h on Windows. Windows has no
// per-thread timer signal: a thread's "timer" is a slot the watcher's look
// reads (kTicksByWatcher). A started one gets its tick from the look
// (tickByWatcher): the watcher suspends the thread (SuspendThread), reads
// its registers (GetThreadContext, which waits until the thread has
// stopped: Wine's SuspendThread returns before it has), calls the tick,
// and resumes it. The tick allocates nothing and takes no lock while the
// thread stands still: it may hold the heap's or the loader's.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <windows.h>
#include <winternl.h>

namespace __spiketrap {

namespace {

// One slot per thread with a timer: its handle, the top of its stack and
// whether it is started. A slot is made and deleted by the sampler's setup
// (the thread or the watcher, never both at once: HasTimer), and read by
// the watcher's look.
struct Timer {
  HANDLE Thread;
  uintptr_t StackHi;
  uint32_t Started;
  uint32_t Used;
};
constexpr int kMaxTimers = 1024;
Timer Timers[kMaxTimers];

// The top of thread H's stack, from its TEB (NT_TIB's StackBase); 0: unknown.
uintptr_t stackTopOf(HANDLE H) {
  struct BasicInfo { // THREAD_BASIC_INFORMATION
    NTSTATUS ExitStatus;
    PVOID TebBaseAddress;
    CLIENT_ID ClientId;
    ULONG_PTR AffinityMask;
    LONG Priority, BasePriority;
  } I;
  using QueryFn = NTSTATUS(NTAPI *)(HANDLE, THREADINFOCLASS, PVOID, ULONG,
                                    PULONG);
  static QueryFn Query = reinterpret_cast<QueryFn>(reinterpret_cast<void *>(
      GetProcAddress(GetModuleHandleA("ntdll.dll"), "NtQueryInformationThread")));
  if (!Query || Query(H, ThreadBasicInformation, &I, sizeof(I), nullptr) != 0 ||
      !I.TebBaseAddress)
    return 0;
  return uintptr_t(static_cast<NT_TIB *>(I.TebBaseAddress)->StackBase);
}

uint64_t cpuNsOf(HANDLE H) {
  FILETIME C, E, K, U;
  if (!GetThreadTimes(H, &C, &E, &K, &U))
    return 0;
  return ((uint64_t(K.dwHighDateTime) << 32 | K.dwLowDateTime) +
          (uint64_t(U.dwHighDateTime) << 32 | U.dwLowDateTime)) *
         100;
}

} // namespace

uint64_t tickThreadCpuNs() { return cpuNsOf(GetCurrentThread()); }

void tickNoteProcess() {}
bool tickInNotedProcess() { return true; } // no vfork
// No signal: a number that stands for the watcher's ticks (nothing compares
// it with a signal's on Windows). A tick costs the thread the time it
// stands stopped, measured by the look (no signal's round trip).
int tickInstallHandler(void (*)(int, siginfo_t *, void *), uint64_t *SignalNs) {
  *SignalNs = 0;
  return 1;
}

bool tickTimerCreate(uint32_t Tid, int, int *Id) {
  for (int I = 0; I < kMaxTimers; ++I) {
    uint32_t Free = 0;
    if (!__atomic_compare_exchange_n(&Timers[I].Used, &Free, 1, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      continue;
    HANDLE H = OpenThread(THREAD_SUSPEND_RESUME | THREAD_GET_CONTEXT |
                              THREAD_QUERY_INFORMATION,
                          FALSE, Tid);
    uintptr_t Hi = H ? stackTopOf(H) : 0;
    if (!Hi) {
      if (H)
        CloseHandle(H);
      __atomic_store_n(&Timers[I].Used, 0, __ATOMIC_RELEASE);
      return false;
    }
    Timers[I].Thread = H;
    Timers[I].StackHi = Hi;
    __atomic_store_n(&Timers[I].Started, 0, __ATOMIC_RELEASE);
    *Id = I;
    return true;
  }
  return false;
}

// The interval is the watcher's to keep (the look ticks a thread when its
// sample is due); only started or not is the slot's.
void tickTimerSet(int Id, uint64_t Ns) {
  if (Id >= 0 && Id < kMaxTimers)
    __atomic_store_n(&Timers[Id].Started, Ns != 0, __ATOMIC_RELEASE);
}

void tickTimerDelete(int Id) {
  if (Id < 0 || Id >= kMaxTimers)
    return;
  Timer &T = Timers[Id];
  __atomic_store_n(&T.Started, 0, __ATOMIC_RELEASE);
  CloseHandle(T.Thread);
  T.Thread = nullptr;
  __atomic_store_n(&T.Used, 0, __ATOMIC_RELEASE);
}

bool tickByWatcher(int Id, void (*Tick)(void *, uint64_t, void *), void *Arg) {
  if (Id < 0 || Id >= kMaxTimers ||
      !__atomic_load_n(&Timers[Id].Started, __ATOMIC_ACQUIRE))
    return false;
  Timer &T = Timers[Id];
  // Its CPU time first: GetThreadTimes may take a lock of Wine's.
  uint64_t CpuNs = cpuNsOf(T.Thread);
  if (SuspendThread(T.Thread) == DWORD(-1))
    return false;
  StoppedThread S;
  S.Regs.ContextFlags = CONTEXT_CONTROL | CONTEXT_INTEGER;
  S.StackHi = T.StackHi;
  bool Ok = GetThreadContext(T.Thread, &S.Regs);
  if (Ok)
    Tick(&S, CpuNs, Arg);
  ResumeThread(T.Thread);
  return Ok;
}

bool tickFromOurTimer(const siginfo_t *) { return false; }
void tickPassOn(int, siginfo_t *, void *) {}
void tickUnblockFaults() {}
void tickBlock(int) {}
void tickTakePending(int) {}
void tickKeepUnblocked(int) {}
void tickAfterForkChild() {}
uintptr_t tickSignalFrameSize() { return 0; }
void tickFastClockCode(uintptr_t *, uintptr_t *) {}
// The walk reads the modules' unwind tables itself
// (spiketrap_sampler_win.cpp): no lock of the loader's.
bool tickUnwindLockFree() { return true; }
bool tickUnderSanitizer() { return false; }
bool tickUnderValgrind() { return false; }
void *tickMapResident(size_t Size) {
  return VirtualAlloc(nullptr, Size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

} // namespace __spiketrap
