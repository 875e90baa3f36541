//===- spiketrap_sampler_win.cpp - The tick as the watcher's look ---------===//
//
// The tick on Windows (spiketrap_sampler.cpp does the tick): no timer
// signals a thread, so the watcher's look delivers it. For a thread with a
// call open past half its threshold whose sample is due, the look stops
// the thread (tickByWatcher: SuspendThread, GetThreadContext), ticks with
// its registers, and lets it go on; the time it stood stopped is the
// tick's cost. The walk unwinds the stopped thread's stack in place with
// the modules' own unwind tables (the PE exception directory, looked up
// here: RtlLookupFunctionEntry takes the loader's lock, which the stopped
// thread may hold) and RtlVirtualUnwind, which only computes. Nothing is
// allocated while the thread stands still. A fault in a walk (unwind data
// that lies) comes back to the walk through a vectored handler.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"
#include "spiketrap_sampler.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <psapi.h>
#include <windows.h>

namespace __spiketrap {

using namespace sampler_impl;

namespace {

//===-- The modules' unwind tables ----------------------------------------===//

struct Module {
  uintptr_t Lo, Hi;
  const RUNTIME_FUNCTION *Fns;
  uint32_t NumFns;
};
// Filled by the watcher outside any tick (walkPrepare); a walk reads them.
Module Modules[256];
uint32_t NumModules;
// A walk met code in no module known: the next look lists them again.
uint32_t Stale = 1;

bool readModule(HMODULE H, Module &M) {
  MODULEINFO I;
  if (!K32GetModuleInformation(GetCurrentProcess(), H, &I, sizeof(I)))
    return false;
  uintptr_t Base = uintptr_t(I.lpBaseOfDll), Size = I.SizeOfImage;
  auto *Dos = reinterpret_cast<const IMAGE_DOS_HEADER *>(Base);
  if (Dos->e_magic != IMAGE_DOS_SIGNATURE || uintptr_t(Dos->e_lfanew) > Size)
    return false;
  auto *Nt = reinterpret_cast<const IMAGE_NT_HEADERS64 *>(Base + Dos->e_lfanew);
  if (Nt->Signature != IMAGE_NT_SIGNATURE ||
      Nt->OptionalHeader.NumberOfRvaAndSizes <= IMAGE_DIRECTORY_ENTRY_EXCEPTION)
    return false;
  const IMAGE_DATA_DIRECTORY &D =
      Nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_EXCEPTION];
  if (D.VirtualAddress + uint64_t(D.Size) > Size)
    return false;
  M = {Base, Base + Size,
       reinterpret_cast<const RUNTIME_FUNCTION *>(Base + D.VirtualAddress),
       uint32_t(D.Size / sizeof(RUNTIME_FUNCTION))};
  return true;
}

void listModules() {
  HMODULE Hs[256];
  DWORD Bytes = 0;
  if (!K32EnumProcessModules(GetCurrentProcess(), Hs, sizeof(Hs), &Bytes))
    return;
  uint32_t N = 0;
  for (DWORD I = 0; I < Bytes / sizeof(HMODULE) && I < 256; ++I)
    if (readModule(Hs[I], Modules[N]))
      ++N;
  __atomic_store_n(&NumModules, N, __ATOMIC_RELEASE);
}

// The unwind entry that holds Pc (binary search of the sorted table), with
// its module's base; null: none (a leaf function, or no module).
const RUNTIME_FUNCTION *lookup(uintptr_t Pc, uintptr_t *Base) {
  uint32_t N = __atomic_load_n(&NumModules, __ATOMIC_ACQUIRE);
  for (uint32_t I = 0; I < N; ++I) {
    const Module &M = Modules[I];
    if (Pc < M.Lo || Pc >= M.Hi)
      continue;
    *Base = M.Lo;
    uint32_t Rva = uint32_t(Pc - M.Lo), L = 0, H = M.NumFns;
    while (L < H) {
      uint32_t Mid = (L + H) / 2;
      if (Rva < M.Fns[Mid].BeginAddress)
        H = Mid;
      else if (Rva >= M.Fns[Mid].EndAddress)
        L = Mid + 1;
      else
        return &M.Fns[Mid];
    }
    return nullptr;
  }
  __atomic_store_n(&Stale, 1, __ATOMIC_RELAXED);
  return nullptr;
}

// UNWIND_INFO's header (the PE format), and its chained entry: a function
// split into parts has its start in the first.
struct UnwindInfo {
  uint8_t VersionFlags, PrologSize, NumCodes, Frame;
  uint16_t Codes[1];
};
constexpr uint8_t kChainInfo = 4; // UNW_FLAG_CHAININFO

const UnwindInfo *infoOf(const RUNTIME_FUNCTION *F, uintptr_t Base) {
  return reinterpret_cast<const UnwindInfo *>(Base + F->UnwindData);
}

uintptr_t startOf(const RUNTIME_FUNCTION *F, uintptr_t Base) {
  for (int I = 0; I < 8; ++I) {
    const UnwindInfo *U = infoOf(F, Base);
    if (!((U->VersionFlags >> 3) & kChainInfo))
      break;
    F = reinterpret_cast<const RUNTIME_FUNCTION *>(
        &U->Codes[(U->NumCodes + 1) & ~1]);
  }
  return Base + F->BeginAddress;
}

// Functions a walk must not step out of: their frames are mid-change (an
// unwinding installs a context, a jump or a fiber switch moves the stack
// pointer). Their starts, as the unwind tables give them.
uintptr_t Unsafe[8];
uint32_t NumUnsafe;

void noteUnsafe(const char *Module, const char *Name) {
  HMODULE M = GetModuleHandleA(Module);
  void *F = M ? reinterpret_cast<void *>(GetProcAddress(M, Name)) : nullptr;
  uintptr_t Base;
  if (const RUNTIME_FUNCTION *R = F ? lookup(uintptr_t(F), &Base) : nullptr)
    if (NumUnsafe < sizeof(Unsafe) / sizeof(Unsafe[0]))
      Unsafe[NumUnsafe++] = startOf(R, Base);
}

//===-- A fault in a walk -------------------------------------------------===//

// While this thread walks a stack: where a fault in it goes back to.
__thread void **WalkGuard;

LONG CALLBACK faultInWalk(EXCEPTION_POINTERS *E) {
  DWORD Code = E->ExceptionRecord->ExceptionCode;
  void **Jmp = WalkGuard;
  if (!Jmp || (Code != EXCEPTION_ACCESS_VIOLATION &&
               Code != EXCEPTION_IN_PAGE_ERROR))
    return EXCEPTION_CONTINUE_SEARCH;
  WalkGuard = nullptr;
  __builtin_longjmp(Jmp, 1);
}

//===-- The walk ----------------------------------------------------------===//

// The value of integer register Reg (the x64 numbering: RAX 0 ... R15 15).
uintptr_t reg(const CONTEXT &C, unsigned Reg) { return (&C.Rax)[Reg & 15]; }

void walk(Walk &W, CONTEXT &C, uintptr_t Hi) {
  uintptr_t Lo = C.Rsp;
  for (bool First = true;; First = false) {
    uintptr_t Pc = C.Rip, Base = 0;
    // A return address points past its call: the call is in the frame's
    // function (the interrupted PC is its own).
    const RUNTIME_FUNCTION *F = Pc ? lookup(First ? Pc : Pc - 1, &Base) : nullptr;
    uintptr_t Start = F ? startOf(F, Base) : 0;
    for (uint32_t I = 0; I < NumUnsafe; ++I)
      if (Start && Start == Unsafe[I]) {
        W.Broken = true;
        W.Fn = 0;
        return;
      }
    W.Found = true;
    W.Fn = Start ? Start : Pc;
    if (!Pc || C.Rsp < Lo || C.Rsp >= Hi)
      return; // the walk ends: W.Fn, its CFA unknown
    if (F) {
      // A frame register its unwinding reads must point into the stack.
      const UnwindInfo *U = infoOf(F, Base);
      if ((U->Frame & 15) &&
          (reg(C, U->Frame & 15) < Lo || reg(C, U->Frame & 15) >= Hi))
        return;
      void *Data;
      DWORD64 Frame;
      RtlVirtualUnwind(UNW_FLAG_NHANDLER, Base, Pc, const_cast<RUNTIME_FUNCTION *>(F),
                       &C, &Data, &Frame, nullptr);
    } else if (First) {
      // A leaf function (no entry): its return address is on top.
      C.Rip = *reinterpret_cast<const DWORD64 *>(C.Rsp);
      C.Rsp += 8;
    } else {
      return; // code without unwind tables above a call
    }
    // The frame's CFA: the stack pointer its caller had before the call.
    uintptr_t Cfa = C.Rsp;
    if (Cfa <= W.Cfa || Cfa > Hi) {
      W.Broken = true;
      W.Fn = 0;
      return;
    }
    W.Cfa = Cfa;
    if (walkFlush(W, Cfa)) {
      W.Fn = 0;
      return;
    }
    if (W.N > 4 * kSampleFrames)
      return;
  }
}

} // namespace

void sampler_impl::walkStack(Walk &W) {
  CONTEXT C;
  uintptr_t Hi;
  if (W.Ctx) {
    const StoppedThread &S = *static_cast<const StoppedThread *>(W.Ctx);
    C = S.Regs;
    Hi = S.StackHi;
    W.Pc = C.Rip;
  } else {
    RtlCaptureContext(&C);
    Hi = uintptr_t(reinterpret_cast<NT_TIB *>(NtCurrentTeb())->StackBase);
    W.Pc = 0;
  }
  void *Jmp[5], **Outer = WalkGuard;
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (__builtin_setjmp(Jmp) == 0) {
    WalkGuard = Jmp;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    walk(W, C, Hi);
  } else {
    W.Broken = true;
    W.Fn = 0;
    __atomic_fetch_add(&UnwindFaults, 1, __ATOMIC_RELAXED);
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);
  WalkGuard = Outer;
}

void sampler_impl::walkPrepare() {
  if (__atomic_exchange_n(&Stale, 0, __ATOMIC_RELAXED))
    listModules();
}

void sampler_impl::primeUnwinder() {
  walkPrepare();
  noteUnsafe("ntdll.dll", "RtlUnwindEx");
  noteUnsafe("ntdll.dll", "RtlUnwind");
  noteUnsafe("ntdll.dll", "RtlRestoreContext");
  noteUnsafe("ntdll.dll", "NtContinue");
  noteUnsafe("ntdll.dll", "KiUserExceptionDispatcher");
  noteUnsafe("msvcrt.dll", "longjmp");
  noteUnsafe("ucrtbase.dll", "longjmp");
  noteUnsafe("kernel32.dll", "SwitchToFiber");
  AddVectoredExceptionHandler(1, faultInWalk);
  __atomic_store_n(&UnwindReady, true, __ATOMIC_RELEASE);
}

// No signal: nothing calls it (tickInstallHandler installs nothing).
void sampler_impl::handler(int, siginfo_t *, void *) {}

void samplerFaultGuard(int) {}
bool samplerHandlerIs(const struct sigaction &) { return false; }
bool samplerHandlerIs(sighandler_t) { return false; }

} // namespace __spiketrap
