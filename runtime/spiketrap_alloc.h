//===- spiketrap_alloc.h - Memory for reports -------------------*- C++ -*-===//
//
// The report's buffers and arrays come from malloc, except in a crash: the
// report written from a fatal signal's handler cannot trust the program's
// heap (the crash may be in malloc, or the heap corrupt), so from then on
// memory comes from pages mapped for it, never freed (the process is dying).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_ALLOC_H
#define SPIKETRAP_ALLOC_H

#include <stddef.h>

namespace __spiketrap {

void *reportCalloc(size_t N, size_t Size); // zero-filled; null when out
void *reportRealloc(void *P, size_t Size);
void reportFree(void *P);
// From now on, memory from mmap only (async-signal-safe).
void reportAllocForCrash();

} // namespace __spiketrap

#endif // SPIKETRAP_ALLOC_H
