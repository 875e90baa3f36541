//===- spiketrap_generic.h - Any other CPU (spiketrap_arch.h) ---*- C++ -*-===//
//
// No counter: the hooks read CLOCK_MONOTONIC (their slow path), no spin hint.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_GENERIC_H
#define SPIKETRAP_GENERIC_H

#include "spiketrap_defs.h"

#include <stdint.h>
#include <time.h>

namespace __spiketrap::arch {

constexpr bool kHasCounter = false;
constexpr const char *kCounterName = "monotonic";

// Never called while kHasCounter is false; nanoseconds all the same.
SPIKETRAP_ALWAYS_INLINE uint64_t readCounter() {
  timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return uint64_t(T.tv_sec) * 1000000000ull + uint64_t(T.tv_nsec);
}
inline uint64_t readCounterOrdered() { return readCounter(); }
inline bool counterUsable() { return false; }
inline uint64_t counterFrequency() { return 1000000000ull; }
inline void spinHint() { asm volatile("" ::: "memory"); }

// A compare-and-swap of the value with itself stores it; when it fails,
// another thread wrote the page.
inline void touchForWrite(char *P) {
  char V = __atomic_load_n(P, __ATOMIC_RELAXED);
  __atomic_compare_exchange_n(P, &V, V, false, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
}

// No system calls without the C library here: -ENOSYS.
inline long rawSyscall(long, long, long, long, long, long, long) {
  return -38;
}

// The program counter a signal interrupted: not known here (no sampling).
inline uintptr_t contextPc(const void *) { return 0; }

} // namespace __spiketrap::arch

#endif // SPIKETRAP_GENERIC_H
