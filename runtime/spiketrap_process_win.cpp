//===- spiketrap_process_win.cpp - Threads and processes on Windows -------===//
//
// The Threads and processes section of spiketrap_platform.h on Windows: a
// thread's id is GetCurrentThreadId, its name the thread description
// (SetThreadDescription, Windows 10 1607 and Wine 8: looked up, mingw-w64
// 10 does not declare it), a nap is Sleep in whole milliseconds. Windows has
// no signals: what holds them is nothing.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <string.h>
#include <windows.h>
#include <tlhelp32.h>

namespace __spiketrap {

namespace {
// Calls F with the id of each of this process's threads in a snapshot of
// the system's, while F says to go on.
template <typename Fn> void forEachOwnThread(Fn F) {
  HANDLE S = CreateToolhelp32Snapshot(TH32CS_SNAPTHREAD, 0);
  if (S == INVALID_HANDLE_VALUE)
    return;
  THREADENTRY32 E;
  E.dwSize = sizeof(E);
  DWORD Pid = GetCurrentProcessId();
  for (BOOL Ok = Thread32First(S, &E); Ok; Ok = Thread32Next(S, &E))
    if (E.th32OwnerProcessID == Pid && !F(E.th32ThreadID))
      break;
  CloseHandle(S);
}

// The process's first thread: of its threads, the one created first (the
// runtime may start on another, from a DLL's constructor or a thread's
// first hook). Found once.
DWORD findFirstThread() {
  DWORD Best = GetCurrentThreadId();
  uint64_t BestAt = UINT64_MAX;
  forEachOwnThread([&](DWORD Tid) {
    HANDLE H = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, Tid);
    FILETIME C, X, K, U;
    if (H && GetThreadTimes(H, &C, &X, &K, &U)) {
      uint64_t At = uint64_t(C.dwHighDateTime) << 32 | C.dwLowDateTime;
      if (At < BestAt) {
        BestAt = At;
        Best = Tid;
      }
    }
    if (H)
      CloseHandle(H);
    return true;
  });
  return Best;
}
DWORD FirstThread;
DWORD firstThread() {
  DWORD T = __atomic_load_n(&FirstThread, __ATOMIC_RELAXED);
  if (!T) {
    T = findFirstThread();
    __atomic_store_n(&FirstThread, T, __ATOMIC_RELAXED);
  }
  return T;
}

using GetDescriptionFn = HRESULT(WINAPI *)(HANDLE, PWSTR *);
GetDescriptionFn getDescription() {
  static GetDescriptionFn F = reinterpret_cast<GetDescriptionFn>(
      reinterpret_cast<void *>(GetProcAddress(
          GetModuleHandleA("kernel32.dll"), "GetThreadDescription")));
  return F;
}
// Names given the way a debugger learns them: RaiseException(0x406D1388)
// with a THREADNAME_INFO (winpthreads' pthread_setname_np, and the idiom
// MSVC programs use). A vectored handler notes each and lets the exception
// go on to whoever handles it; ownThreadName reads them.
constexpr DWORD kSetThreadName = 0x406D1388;
struct NamedThread {
  uint32_t Tid;
  char Name[16];
};
NamedThread Named[64];
uint32_t NumNamed;

LONG CALLBACK noteThreadName(EXCEPTION_POINTERS *E) {
  const EXCEPTION_RECORD *R = E->ExceptionRecord;
  // The record as ULONG_PTRs: dwType, szName, dwThreadID | dwFlags << 32.
  if (R->ExceptionCode != kSetThreadName || R->NumberParameters < 3 ||
      uint32_t(R->ExceptionInformation[0]) != 0x1000 ||
      !R->ExceptionInformation[1])
    return EXCEPTION_CONTINUE_SEARCH;
  uint32_t Tid = uint32_t(R->ExceptionInformation[2]);
  if (Tid == 0xffffffffu)
    Tid = GetCurrentThreadId();
  uint32_t I = 0, N = __atomic_load_n(&NumNamed, __ATOMIC_ACQUIRE);
  while (I < N && I < 64 && Named[I].Tid != Tid)
    ++I;
  if (I >= N) // a thread not named before: the next slot, the oldest once full
    I = __atomic_fetch_add(&NumNamed, 1, __ATOMIC_ACQ_REL) % 64;
  NamedThread &T = Named[I];
  const char *Name = reinterpret_cast<const char *>(R->ExceptionInformation[1]);
  size_t Len = strnlen(Name, 15);
  __atomic_store_n(&T.Tid, 0, __ATOMIC_RELAXED);
  memcpy(T.Name, Name, Len);
  T.Name[Len] = 0;
  __atomic_store_n(&T.Tid, Tid, __ATOMIC_RELEASE);
  return EXCEPTION_CONTINUE_SEARCH;
}

bool namedName(uint32_t Tid, char *Out) {
  uint32_t N = __atomic_load_n(&NumNamed, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N && I < 64; ++I)
    if (__atomic_load_n(&Named[I].Tid, __ATOMIC_ACQUIRE) == Tid) {
      memcpy(Out, Named[I].Name, 16);
      Out[15] = 0;
      return Out[0] != 0;
    }
  return false;
}
} // namespace

AllSignalsHeld::AllSignalsHeld() {}
AllSignalsHeld::~AllSignalsHeld() {}
FileSizeSignalHeld::FileSizeSignalHeld() {}
FileSizeSignalHeld::~FileSizeSignalHeld() {}

uint32_t threadId() { return uint32_t(GetCurrentThreadId()); }

bool isFirstThread(uint32_t Tid) { return Tid == firstThread(); }
uint32_t firstThreadId() { return firstThread(); }

// The thread's description, else the name a debugger would have been
// told, else, as Linux names a thread that was never named, the program's
// file name (without .exe), 15 bytes at most.
// The description is read again at most every 250 ms: a spike's name is
// read as it is recorded, and GetThreadDescription is a wineserver call
// under Wine (0.1-0.6 ms a spike, measured; 4 us without it).
__thread char Described[16];
__thread ULONGLONG DescribedAt;

bool ownThreadName(char *Out) {
  ULONGLONG Now = GetTickCount64(); // the shared user page: no system call
  if (!DescribedAt || Now - DescribedAt >= 250) {
    DescribedAt = Now;
    Described[0] = 0;
    GetDescriptionFn F = getDescription();
    PWSTR W = nullptr;
    if (F && SUCCEEDED(F(GetCurrentThread(), &W)) && W) {
      if (WideCharToMultiByte(CP_UTF8, 0, W, -1, Described, 16, nullptr,
                              nullptr) <= 1)
        Described[0] = 0;
      Described[15] = 0;
      LocalFree(W);
    }
  }
  if (Described[0]) {
    memcpy(Out, Described, 16);
    return true;
  }
  if (namedName(GetCurrentThreadId(), Out))
    return true;
  char Path[MAX_PATH];
  DWORD Len = GetModuleFileNameA(nullptr, Path, sizeof(Path));
  if (!Len || Len >= sizeof(Path))
    return false;
  const char *Base = Path + Len;
  while (Base > Path && Base[-1] != '\\' && Base[-1] != '/')
    --Base;
  size_t N = strlen(Base);
  if (N > 4 && _stricmp(Base + N - 4, ".exe") == 0)
    N -= 4;
  N = N < 15 ? N : 15;
  memcpy(Out, Base, N);
  Out[N] = 0;
  return N > 0;
}

// Renames reach no threadRenamed: names are read again at a spike and at
// exit. Asked once, at start-up: the handler that notes debugger names
// goes in then, first in line (winpthreads handles the exception itself).
bool threadRenamesSeen() {
  AddVectoredExceptionHandler(1, noteThreadName);
  return false;
}

bool threadAlive(uint32_t Tid) {
  HANDLE H = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, Tid);
  if (!H)
    return false;
  DWORD Code = 0;
  bool Alive = GetExitCodeThread(H, &Code) && Code == STILL_ACTIVE;
  CloseHandle(H);
  return Alive;
}

// kernel32's own, not the import the waits' wrapper took the place of.
void napNs(uint64_t Ns) {
  using SleepFn = void(WINAPI *)(DWORD);
  static SleepFn Real = reinterpret_cast<SleepFn>(reinterpret_cast<void *>(
      GetProcAddress(GetModuleHandleA("kernel32.dll"), "Sleep")));
  Real(DWORD((Ns + 999999) / 1000000));
}

void setTimerSlackNs(uint64_t) {} // Windows gathers no timer wake-ups per thread

// A snapshot of the system's threads, this process's counted.
uint32_t processThreads() {
  uint32_t N = 0;
  forEachOwnThread([&](DWORD) { return ++N, true; });
  return N;
}

bool firstThreadEnded() { return !threadAlive(firstThread()); }

uint32_t scanThreadIds(uint32_t *Out, uint32_t Max, bool (*Skip)(uint32_t)) {
  uint32_t N = 0;
  DWORD Self = GetCurrentThreadId(), First = firstThread();
  forEachOwnThread([&](DWORD Tid) {
    if (N < Max && Tid != Self && Tid != First && !(Skip && Skip(Tid)))
      Out[N++] = Tid;
    return N < Max;
  });
  return N;
}

// Windows names no clock source: the TSC is trusted when the CPU says it
// is invariant (spiketrap_x86_64.h).
bool kernelClocksourceIs(const char *) { return false; }

} // namespace __spiketrap
