//===- spiketrap_lifecycle.h - fork, exit and unloading ---------*- C++ -*-===//
#ifndef SPIKETRAP_LIFECYCLE_H
#define SPIKETRAP_LIFECYCLE_H

#include <stdint.h>

namespace __spiketrap {

// The platform's (spiketrap_lifecycle_linux.cpp): finds the C library's
// names the interposers call and registers the fork handlers.
void lifecycleInit();

// exit() has begun (the report at exit is next): unloaded objects' hooks
// have nothing to do from now on.
void lifecycleExiting();
// In a forked child, before it returns from fork: every part of the
// runtime starts its state anew (threads, records, report, signals).
void lifecycleAfterForkChild();
// A forked child leaves without exit() (no atexit handler runs: _exit, as
// Redis's BGSAVE child does): its report is written here, when it has one.
void lifecycleForkedChildExits();
// The code and data of [Lo, Hi) are about to be unloaded: records and
// pending patches let go of them (records keep copies of descriptors).
void lifecycleDetachRange(uintptr_t Lo, uintptr_t Hi);

} // namespace __spiketrap

#endif // SPIKETRAP_LIFECYCLE_H
