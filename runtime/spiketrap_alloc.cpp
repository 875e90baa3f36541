//===- spiketrap_alloc.cpp - Memory for reports ---------------------------===//
#include "spiketrap_alloc.h"
#include "spiketrap_platform.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

namespace __spiketrap {

namespace {
bool Crash;

// A crash-time block: its size before it, for realloc.
struct alignas(16) Header {
  size_t Size;
};

void *mapBlock(size_t Size) {
  void *P = mapPages(sizeof(Header) + Size);
  if (!P)
    return nullptr;
  static_cast<Header *>(P)->Size = Size;
  return static_cast<Header *>(P) + 1;
}
} // namespace

void reportAllocForCrash() { __atomic_store_n(&Crash, true, __ATOMIC_RELAXED); }

void *reportCalloc(size_t N, size_t Size) {
  if (!__atomic_load_n(&Crash, __ATOMIC_RELAXED))
    return calloc(N, Size);
  if (Size && N > SIZE_MAX / 2 / Size)
    return nullptr;
  return mapBlock(N * Size); // mapped pages are zero
}

void *reportRealloc(void *P, size_t Size) {
  if (!__atomic_load_n(&Crash, __ATOMIC_RELAXED))
    return realloc(P, Size);
  void *New = mapBlock(Size);
  // P is null or a crash-time block: the crash report's buffers are all
  // made after the switch.
  if (New && P) {
    size_t Old = (static_cast<Header *>(P) - 1)->Size;
    memcpy(New, P, Old < Size ? Old : Size);
  }
  return New;
}

void reportFree(void *P) {
  if (!__atomic_load_n(&Crash, __ATOMIC_RELAXED))
    free(P);
  // In a crash: kept (unmapping would cost a system call per buffer, and
  // blocks from before the crash belong to malloc).
}

} // namespace __spiketrap
