//===- spiketrap_arch.h - What differs from one CPU to another --*- C++ -*-===//
//
// The only place that chooses code by architecture (like XRay's xray_<arch>
// files): each spiketrap_<arch>.h defines, in namespace __spiketrap::arch,
//   kHasCounter, kCounterName  whether there is a tick counter user code reads
//                              cheaply, and its name in reports;
//   readCounter()              the hooks' read of it: one instruction, not
//                              ordered against the code around it (a spike
//                              is milliseconds; the reordering window is a
//                              few hundred cycles);
//   readCounterOrdered()       the same once earlier instructions are done,
//                              for the start-up (ticks, ns) pairs;
//   counterUsable()            whether it ticks at a constant rate;
//   counterFrequency()         ticks per second if the CPU says, else 0
//                              (calibrated against CLOCK_MONOTONIC);
//   spinHint()                 the spin-wait hint of a busy loop;
//   touchForWrite(P)           a write that changes no byte, made resident
//                              (the page fault path before MADV_POPULATE_WRITE);
//   rawSyscall(Nr, ...)        a system call without the C library;
//   contextPc(Uctx)            the PC a signal interrupted (0: unknown);
// and where the target has patchable sites (spiketrap_tramp.h defines
// SPIKETRAP_SITE_SIZE), their encodings:
//   SiteInsn, kSiteOff         the patchable instruction's type, its
//                              switched-off form (a NOP);
//   isLandingPad(W), siteTimed(Landing)
//                              the timed form (a jump back into the
//                              prefix), past a landing pad before the site;
//   flushCode(Begin, End)      what rewritten code needs before it runs;
//   prefixDescriptor(Prefix)   the descriptor a site's prefix names.
// Any other CPU gets the generic one: CLOCK_MONOTONIC and no hint.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_ARCH_H
#define SPIKETRAP_ARCH_H

#include "spiketrap_platform.h" // kernelClocksourceIs

#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include "spiketrap_x86_64.h"
#elif defined(__aarch64__)
#include "spiketrap_aarch64.h"
#else
#include "spiketrap_generic.h"
#endif

#endif // SPIKETRAP_ARCH_H
