//===- spiketrap_waits_calls_win.cpp - Windows's waits, caught ------------===//
//
// The waiting calls of spiketrap_waits_win.inc on Windows: a wrapper each,
// put in the program's import address table at start-up (as Detours and the
// sanitizers' Windows interceptors patch imports), so every call the
// program's code makes through its imports reaches it; the real function
// is kernel32's (nextDefinition). A DLL loaded later keeps its own imports,
// and code that looks a function up itself (GetProcAddress) calls it
// directly: those waits are not seen (docs/windows.md).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_thread.h"
#include "spiketrap_waits.h"

#include <string.h>
#include <windows.h>

namespace __spiketrap {

namespace {

// The wrapper of a call that may wait: the real call between waitBegin and
// waitEnd, with the call's last error kept for the program.
template <typename Fn> struct Wrap;
template <typename Ret, typename... A> struct Wrap<Ret(A...)> {
  template <uint32_t Call> static Ret WINAPI call(A... Args) {
    WaitScope W;
    waitBegin(W, Call);
    using Real = Ret(WINAPI *)(A...);
    if constexpr (__is_same(Ret, void)) {
      reinterpret_cast<Real>(W.Real)(Args...);
      DWORD Err = GetLastError();
      waitEnd(W);
      SetLastError(Err);
    } else {
      Ret R = reinterpret_cast<Real>(W.Real)(Args...);
      DWORD Err = GetLastError();
      waitEnd(W);
      SetLastError(Err);
      return R;
    }
  }
};

// A lock: tried first; the real call is timed only when the lock is taken
// (an uncontended lock costs one more call).
template <uint32_t Call, typename Lock>
void timedLock(Lock *L, BOOLEAN(WINAPI *Try)(Lock *)) {
  ThreadState &T = threadState;
  if (T.Status == StatusActive && T.Depth && Try(L))
    return;
  WaitScope W;
  waitBegin(W, Call);
  reinterpret_cast<void(WINAPI *)(Lock *)>(W.Real)(L);
  waitEnd(W);
}
BOOLEAN WINAPI tryCriticalSection(CRITICAL_SECTION *C) {
  return TryEnterCriticalSection(C);
}

void WINAPI enterCriticalSection(LPCRITICAL_SECTION C) {
  timedLock<Wait_EnterCriticalSection>(C, tryCriticalSection);
}
void WINAPI acquireSRWLockExclusive(PSRWLOCK L) {
  timedLock<Wait_AcquireSRWLockExclusive>(L, TryAcquireSRWLockExclusive);
}
void WINAPI acquireSRWLockShared(PSRWLOCK L) {
  timedLock<Wait_AcquireSRWLockShared>(L, TryAcquireSRWLockShared);
}

// Each call's name and wrapper, in the .inc's order.
struct Entry {
  const char *Name;
  void *Wrapper;
};
const Entry Entries[] = {
#define SPIKETRAP_WAIT(Name, Ret, Params, Args)                                \
  {#Name, reinterpret_cast<void *>(                                            \
              &Wrap<Ret Params>::template call<Wait_##Name>)},
#define SPIKETRAP_WAIT_OWN(Name, Ret, Params, Args)                            \
  {#Name, reinterpret_cast<void *>(&SPIKETRAP_LOWER_FIRST_##Name)},
#define SPIKETRAP_LOWER_FIRST_EnterCriticalSection enterCriticalSection
#define SPIKETRAP_LOWER_FIRST_AcquireSRWLockExclusive acquireSRWLockExclusive
#define SPIKETRAP_LOWER_FIRST_AcquireSRWLockShared acquireSRWLockShared
#include "spiketrap_waits_win.inc"
};

const Entry *entryNamed(const char *Name) {
  for (const Entry &E : Entries)
    if (strcmp(E.Name, Name) == 0)
      return &E;
  return nullptr;
}

// Points M's import slots of the calls above at their wrappers.
void patchImports(HMODULE M) {
  auto Base = reinterpret_cast<uintptr_t>(M);
  auto *Dos = reinterpret_cast<const IMAGE_DOS_HEADER *>(Base);
  auto *Nt = reinterpret_cast<const IMAGE_NT_HEADERS64 *>(Base + Dos->e_lfanew);
  const IMAGE_DATA_DIRECTORY &Dir =
      Nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
  if (!Dir.VirtualAddress)
    return;
  for (auto *D = reinterpret_cast<const IMAGE_IMPORT_DESCRIPTOR *>(
           Base + Dir.VirtualAddress);
       D->Name; ++D) {
    // The names (the lookup table); the binder may have filled the other.
    auto *Names = reinterpret_cast<const IMAGE_THUNK_DATA64 *>(
        Base + (D->OriginalFirstThunk ? D->OriginalFirstThunk : D->FirstThunk));
    auto *Slots = reinterpret_cast<IMAGE_THUNK_DATA64 *>(Base + D->FirstThunk);
    for (; Names->u1.AddressOfData; ++Names, ++Slots) {
      if (IMAGE_SNAP_BY_ORDINAL64(Names->u1.Ordinal))
        continue;
      auto *ByName = reinterpret_cast<const IMAGE_IMPORT_BY_NAME *>(
          Base + Names->u1.AddressOfData);
      const Entry *E = entryNamed(reinterpret_cast<const char *>(ByName->Name));
      if (!E)
        continue;
      DWORD Old;
      if (!VirtualProtect(&Slots->u1.Function, sizeof(Slots->u1.Function),
                          PAGE_READWRITE, &Old))
        continue;
      __atomic_store_n(&Slots->u1.Function, uintptr_t(E->Wrapper),
                       __ATOMIC_RELEASE);
      VirtualProtect(&Slots->u1.Function, sizeof(Slots->u1.Function), Old, &Old);
    }
  }
}

} // namespace

// The program's own module: the runtime is linked into it, and so is the
// code its waits come from (its own, the C++ library's, winpthreads').
void waitsInstall() { patchImports(GetModuleHandleA(nullptr)); }

} // namespace __spiketrap
