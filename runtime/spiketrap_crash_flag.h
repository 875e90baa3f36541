//===- spiketrap_crash_flag.h - Whether the process is crashing -*- C++ -*-===//
//
// What other parts ask of the crash handler (spiketrap_crash.cpp): whether
// it is writing a fatal signal's report (set as it starts), and whether an
// action is its own. Apart from the handler, which calls the report, so
// that what the report calls (the thread registry) and what installs
// actions (the interposed sigaction) can ask.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_CRASH_FLAG_H
#define SPIKETRAP_CRASH_FLAG_H

#include "spiketrap_defs.h"

#include "spiketrap_platform.h" // sighandler_t

namespace __spiketrap {

// The first fatal signal the crash handler took, 0: none.
extern int crashSignal SPIKETRAP_INTERNAL;

// Whether a fatal signal's report is being written: locks are tried, not
// waited for, and the heap is not used.
inline bool crashing() {
  return __atomic_load_n(&crashSignal, __ATOMIC_ACQUIRE);
}

// Whether A is the crash handler: the program is told the action is the
// default.
bool crashHandlerIs(const struct sigaction &A);
bool crashHandlerIs(sighandler_t H); // as signal() returns it

} // namespace __spiketrap

#endif // SPIKETRAP_CRASH_FLAG_H
