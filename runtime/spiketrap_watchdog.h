//===- spiketrap_watchdog.h - Calls that do not return ----------*- C++ -*-===//
#ifndef SPIKETRAP_WATCHDOG_H
#define SPIKETRAP_WATCHDOG_H

#include <stdint.h>

namespace __spiketrap {

// With hang_after=: whether the watcher must look for hangs.
bool watchdogInit();
// The watcher's tick at Now (ticks): looks for calls stuck for hang_after
// when it is time to; returns when it wants to look next.
uint64_t watchdogTick(uint64_t Now);
// In a forked child: what the parent's watchdog saw is the parent's.
void watchdogAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_WATCHDOG_H
