//===- spiketrap_memory_linux.cpp - Pages, on Linux -----------------------===//
//
// The "Memory" section of spiketrap_platform.h: the runtime's own pages
// (mmap, never malloc: it serves signal handlers and crashes), their
// residency (madvise), and the protection of code pages for rewriting
// patchable sites (spiketrap_patch.cpp).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

namespace __spiketrap {

size_t pageSize() { return size_t(sysconf(_SC_PAGESIZE)); }

void *mapPages(size_t Size, bool NoReserve) {
  int Flags = MAP_PRIVATE | MAP_ANONYMOUS | (NoReserve ? MAP_NORESERVE : 0);
  void *P = mmap(nullptr, Size, PROT_READ | PROT_WRITE, Flags, -1, 0);
  return P == MAP_FAILED ? nullptr : P;
}

void unmapPages(void *P, size_t Size) { munmap(P, Size); }

void *mapGuardedStack(size_t Size) {
  size_t Page = pageSize();
  char *P =
      static_cast<char *>(mmap(nullptr, Size + Page, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0));
  if (P == MAP_FAILED)
    return nullptr;
  if (mprotect(P, Page, PROT_NONE) != 0) {
    munmap(P, Size + Page);
    return nullptr;
  }
  return P + Page;
}

void unmapGuardedStack(void *Stack, size_t Size) {
  size_t Page = pageSize();
  munmap(static_cast<char *>(Stack) - Page, Size + Page);
}

bool populatePages(void *P, size_t Len, bool ForWrite) {
  // Linux 5.14 and later; older kernels say EINVAL.
  return madvise(P, Len, ForWrite ? MADV_POPULATE_WRITE : MADV_POPULATE_READ) ==
         0;
}

void discardPages(void *P, size_t Len) { madvise(P, Len, MADV_DONTNEED); }

int protectCode(void *Begin, size_t Len, bool Writable) {
  // Text segments are read and execute.
  int Prot = PROT_READ | PROT_EXEC | (Writable ? PROT_WRITE : 0);
  return mprotect(Begin, Len, Prot) ? errno : 0;
}

} // namespace __spiketrap
