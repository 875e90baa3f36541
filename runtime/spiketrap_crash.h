//===- spiketrap_crash.h - Reports from a fatal signal ----------*- C++ -*-===//
#ifndef SPIKETRAP_CRASH_H
#define SPIKETRAP_CRASH_H

#include <signal.h>

namespace __spiketrap {

// With crash_report=1, handles the fatal signals the program leaves at
// their default action: the reports are written, then the signal kills.
void crashInit();
// Whether A is our handler: the program is told the action is the default.
bool crashHandlerIs(const struct sigaction &A);
bool crashHandlerIs(sighandler_t H); // as signal() returns it

} // namespace __spiketrap

#endif // SPIKETRAP_CRASH_H
