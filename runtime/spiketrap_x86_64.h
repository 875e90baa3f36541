//===- spiketrap_x86_64.h - x86 primitives (spiketrap_arch.h) ---*- C++ -*-===//
//
// The TSC: rdtsc (~10 ns), calibrated at start-up, trusted when invariant.
// Also used for 32-bit x86 (all but touchForWrite).
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_X86_64_H
#define SPIKETRAP_X86_64_H

#include "spiketrap_defs.h"
#include "spiketrap_tramp.h"

#include <cpuid.h>
#include <stdint.h>
#include <x86intrin.h>
#ifdef _WIN32
#include <windows.h> // CONTEXT
#else
#include <ucontext.h>
#endif

namespace __spiketrap::arch {

constexpr bool kHasCounter = true;
constexpr const char *kCounterName = "tsc";

SPIKETRAP_ALWAYS_INLINE uint64_t readCounter() { return __rdtsc(); }
// Calibration takes the tightest of several pairs, which bounds the error
// without a fence.
inline uint64_t readCounterOrdered() { return __rdtsc(); }

inline bool counterUsable() {
  unsigned A, B, C, D;
  // CPUID 0x80000007 EDX bit 8: invariant TSC (constant rate, never stops).
  if (__get_cpuid(0x80000007, &A, &B, &C, &D) && (D & (1u << 8)))
    return true;
  // VMs often hide the bit; a kernel that keeps time with the TSC trusts it.
  return kernelClocksourceIs("tsc");
}

// The TSC's rate is not architectural: calibrate.
inline uint64_t counterFrequency() { return 0; }

inline void spinHint() { __builtin_ia32_pause(); }

inline void touchForWrite(char *P) {
#if defined(__x86_64__)
  // A locked add of 0 is a write the compiler cannot fold into a load (an
  // atomic add of 0 in C++ can be).
  asm volatile("lock addq $0, (%0)" ::"r"(P) : "memory");
#else
  asm volatile("lock addl $0, (%0)" ::"r"(P) : "memory");
#endif
}

#if defined(SPIKETRAP_SITE_SIZE)
// Patchable sites (plugin/Sites.cpp lays them out, spiketrap_patch.cpp
// switches them, spiketrap_symbols.cpp reads their prefix). The site is one
// 2-byte instruction, rewritten whole by one aligned store, as XRay flips
// its sleds.
using SiteInsn = uint16_t;

// Switched off: xchg %ax, %ax (66 90), a 2-byte NOP.
constexpr SiteInsn kSiteOff = 0x9066;

// Whether the 4 bytes before a site (little-endian) are endbr64 (IBT), which
// the timed form's jump lands past. The prefix ends in int3 padding, so
// they are one only when the function starts with one.
inline bool isLandingPad(uint32_t Before) {
  return Before == 0xfa1e0ff3; // f3 0f 1e fa
}

// Timed: a short jump back to the prefix's start, past the landing pad.
inline SiteInsn siteTimed(bool Landing) {
  int Back = -SPIKETRAP_SITE_PREFIX - (Landing ? 4 : 0) - SPIKETRAP_SITE_SIZE;
  return SiteInsn(0xeb | (uint8_t(Back) << 8));
}

// After rewriting code: nothing (x86 instruction caches are coherent).
inline void flushCode(char *, char *) {}

// The descriptor the prefix at Prefix names (its first instruction, `lea
// desc(%rip), %r11`), or 0 when that is not a site's prefix.
inline uintptr_t prefixDescriptor(uintptr_t Prefix) {
  const auto *P = reinterpret_cast<const uint8_t *>(Prefix);
  if (P[0] != 0x4c || P[1] != 0x8d || P[2] != 0x1d)
    return 0;
  int32_t Rel;
  __builtin_memcpy(&Rel, P + 3, sizeof(Rel));
  return Prefix + 7 + uintptr_t(intptr_t(Rel));
}
#endif // SPIKETRAP_SITE_SIZE

// A system call without the C library (a statically linked program's
// interposed calls, spiketrap_waits.cpp): the result, or -errno.
inline long rawSyscall(long Nr, long A, long B, long C, long D, long E,
                       long F) {
#if defined(__x86_64__) && defined(__linux__)
  register long R10 asm("r10") = D, R8 asm("r8") = E, R9 asm("r9") = F;
  long Ret;
  asm volatile("syscall"
               : "=a"(Ret)
               : "a"(Nr), "D"(A), "S"(B), "d"(C), "r"(R10), "r"(R8), "r"(R9)
               : "rcx", "r11", "memory");
  return Ret;
#else
  return -38; // ENOSYS
#endif
}

// The program counter a signal interrupted (its handler's ucontext_t; on
// Windows, a suspended thread's CONTEXT).
inline uintptr_t contextPc(const void *Uctx) {
#if defined(_WIN32)
  return uintptr_t(static_cast<const CONTEXT *>(Uctx)->Rip);
#elif defined(__x86_64__)
  return uintptr_t(
      static_cast<const ucontext_t *>(Uctx)->uc_mcontext.gregs[REG_RIP]);
#else
  return uintptr_t(
      static_cast<const ucontext_t *>(Uctx)->uc_mcontext.gregs[REG_EIP]);
#endif
}

} // namespace __spiketrap::arch

#endif // SPIKETRAP_X86_64_H
