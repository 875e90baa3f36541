//===- spiketrap_aarch64.h - AArch64 primitives (_arch.h) -------*- C++ -*-===//
//
// The generic timer's virtual counter, cntvct_el0: constant rate by the
// architecture, readable from user mode on Linux (its vDSO reads it too),
// its rate in cntfrq_el0, so no calibration.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_AARCH64_H
#define SPIKETRAP_AARCH64_H

#include "spiketrap_defs.h"
#include "spiketrap_tramp.h"

#include <stdint.h>
#include <ucontext.h>

namespace __spiketrap::arch {

constexpr bool kHasCounter = true;
constexpr const char *kCounterName = "cntvct";

SPIKETRAP_ALWAYS_INLINE uint64_t readCounter() {
  uint64_t V;
  asm volatile("mrs %0, cntvct_el0" : "=r"(V));
  return V;
}
// isb: the read waits for the instructions before it (as Linux's vDSO does).
inline uint64_t readCounterOrdered() {
  uint64_t V;
  asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(V)::"memory");
  return V;
}

inline bool counterUsable() { return true; }

inline uint64_t counterFrequency() {
  uint64_t F;
  asm volatile("mrs %0, cntfrq_el0" : "=r"(F));
  return F;
}

inline void spinHint() { asm volatile("yield" ::: "memory"); }

// Load-exclusive/store-exclusive of the same value: a real store whatever
// the compiler knows, on every AArch64 (no LSE needed).
inline void touchForWrite(char *P) {
  uint64_t V;
  uint32_t Failed;
  asm volatile("1: ldxr %0, [%2]\n\t"
               "stxr %w1, %0, [%2]\n\t"
               "cbnz %w1, 1b"
               : "=&r"(V), "=&r"(Failed)
               : "r"(P)
               : "memory");
}

// *P + 1, safe against a signal handler on this thread that adds to it
// between the load and the store: the handler's return clears the
// exclusive monitor, so the store fails and the loop reads again. Inline
// (an atomic add would be a call to an outlined helper without LSE).
inline void incrementOwn(uint64_t *P) {
  uint64_t V;
  uint32_t Failed;
  asm volatile("1: ldxr %0, [%2]\n\t"
               "add %0, %0, #1\n\t"
               "stxr %w1, %0, [%2]\n\t"
               "cbnz %w1, 1b"
               : "=&r"(V), "=&r"(Failed)
               : "r"(P)
               : "memory");
}

// Patchable sites (plugin/Sites.cpp lays them out, spiketrap_patch.cpp
// switches them, spiketrap_symbols.cpp reads their prefix). The site is one
// 4-byte instruction, NOP <-> B: a pair the architecture allows to be
// modified while another thread runs it.
using SiteInsn = uint32_t;

// Switched off: nop.
constexpr SiteInsn kSiteOff = 0xd503201f;

// Whether the instruction before a site is bti c (BTI), which the timed
// form's branch lands past. The prefix ends in brk, never a bti.
inline bool isLandingPad(uint32_t Before) { return Before == 0xd503245f; }

// Timed: b to the prefix's code, 8 bytes in (after its two offsets).
inline SiteInsn siteTimed(bool Landing) {
  int Back = (-SPIKETRAP_SITE_PREFIX + 8 - (Landing ? 4 : 0)) / 4;
  return SiteInsn(0x14000000u | (uint32_t(Back) & 0x3ffffff));
}

// After rewriting code: the instruction cache made to see it.
inline void flushCode(char *Begin, char *End) {
  __builtin___clear_cache(Begin, End);
}

// The descriptor the prefix at Prefix names (its first word: the offset from
// there to it). Any word reads as an offset: the caller checks where it
// leads.
inline uintptr_t prefixDescriptor(uintptr_t Prefix) {
  int32_t Rel;
  __builtin_memcpy(&Rel, reinterpret_cast<const void *>(Prefix), sizeof(Rel));
  return Prefix + uintptr_t(intptr_t(Rel));
}

// A system call without the C library (a statically linked program's
// interposed calls, spiketrap_waits.cpp): the result, or -errno.
inline long rawSyscall(long Nr, long A, long B, long C, long D, long E,
                       long F) {
  register long X8 asm("x8") = Nr, X0 asm("x0") = A, X1 asm("x1") = B,
                   X2 asm("x2") = C, X3 asm("x3") = D, X4 asm("x4") = E,
                   X5 asm("x5") = F;
  asm volatile("svc 0"
               : "+r"(X0)
               : "r"(X8), "r"(X1), "r"(X2), "r"(X3), "r"(X4), "r"(X5)
               : "memory");
  return X0;
}

// The program counter a signal interrupted (its handler's ucontext_t).
inline uintptr_t contextPc(const void *Uctx) {
  return uintptr_t(static_cast<const ucontext_t *>(Uctx)->uc_mcontext.pc);
}

} // namespace __spiketrap::arch

#endif // SPIKETRAP_AARCH64_H
