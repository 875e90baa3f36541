//===- spiketrap_memory_win.cpp - Pages on Windows ------------------------===//
//
// The Memory section of spiketrap_platform.h on Windows: VirtualAlloc and
// VirtualProtect. A reservation without commit is not what the runtime's
// arenas want (they are touched sparsely but must not fail when touched),
// so every mapping is committed; the OS backs a committed page only when it
// is first touched.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <windows.h>

namespace __spiketrap {

size_t pageSize() {
  SYSTEM_INFO I;
  GetSystemInfo(&I);
  return I.dwPageSize;
}

void *mapPages(size_t Size, bool) {
  return VirtualAlloc(nullptr, Size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

void unmapPages(void *P, size_t) { VirtualFree(P, 0, MEM_RELEASE); }

void *mapGuardedStack(size_t Size) {
  size_t Page = pageSize();
  char *P = static_cast<char *>(
      VirtualAlloc(nullptr, Size + Page, MEM_RESERVE, PAGE_NOACCESS));
  if (!P)
    return nullptr;
  if (!VirtualAlloc(P + Page, Size, MEM_COMMIT, PAGE_READWRITE)) {
    VirtualFree(P, 0, MEM_RELEASE);
    return nullptr;
  }
  return P + Page;
}

void unmapGuardedStack(void *Stack, size_t) {
  VirtualFree(static_cast<char *>(Stack) - pageSize(), 0, MEM_RELEASE);
}

// PrefetchVirtualMemory makes pages resident but may skip some: the caller
// touches them itself.
bool populatePages(void *, size_t, bool) { return false; }

// Decommitted and committed again: zero pages, their memory given back.
void discardPages(void *P, size_t Len) {
  VirtualFree(P, Len, MEM_DECOMMIT);
  VirtualAlloc(P, Len, MEM_COMMIT, PAGE_READWRITE);
}

int protectCode(void *Begin, size_t Len, bool Writable) {
  DWORD Old;
  if (!VirtualProtect(Begin, Len,
                      Writable ? PAGE_EXECUTE_READWRITE : PAGE_EXECUTE_READ,
                      &Old))
    return int(GetLastError());
  if (!Writable)
    FlushInstructionCache(GetCurrentProcess(), Begin, Len);
  return 0;
}

} // namespace __spiketrap
