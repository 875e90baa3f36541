//===- spiketrap_watchdog.h - Calls that do not return ----------*- C++ -*-===//
#ifndef SPIKETRAP_WATCHDOG_H
#define SPIKETRAP_WATCHDOG_H

namespace __spiketrap {

// With hang_after=, starts the thread that reports calls stuck that long.
void watchdogStart();
// In a forked child: a new watchdog thread, if the parent had one.
void watchdogAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_WATCHDOG_H
