//===- spiketrap_crash_flag.h - Whether the process is crashing -*- C++ -*-===//
//
// Set by the crash handler (spiketrap_crash.cpp) as it starts a fatal
// signal's report; read by what that report runs through. Apart from the
// handler, which calls the report, so that what the report calls (the thread
// registry) can ask.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_CRASH_FLAG_H
#define SPIKETRAP_CRASH_FLAG_H

#include "spiketrap_defs.h"

namespace __spiketrap {

// The first fatal signal the crash handler took, 0: none.
extern int crashSignal SPIKETRAP_INTERNAL;

// Whether a fatal signal's report is being written: locks are tried, not
// waited for, and the heap is not used.
inline bool crashing() {
  return __atomic_load_n(&crashSignal, __ATOMIC_ACQUIRE);
}

} // namespace __spiketrap

#endif // SPIKETRAP_CRASH_FLAG_H
