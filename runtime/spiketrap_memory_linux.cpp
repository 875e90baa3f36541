//===- spiketrap_memory_linux.cpp - Pages, on Linux -----------------------===//
//
// The "Memory" section of spiketrap_platform.h: the page size and the
// protection of code pages, for rewriting patchable sites
// (spiketrap_patch.cpp).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

namespace __spiketrap {

size_t pageSize() { return size_t(sysconf(_SC_PAGESIZE)); }

int protectCode(void *Begin, size_t Len, bool Writable) {
  // Text segments are read and execute.
  int Prot = PROT_READ | PROT_EXEC | (Writable ? PROT_WRITE : 0);
  return mprotect(Begin, Len, Prot) ? errno : 0;
}

} // namespace __spiketrap
