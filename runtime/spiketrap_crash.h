//===- spiketrap_crash.h - Reports from a fatal signal ----------*- C++ -*-===//
#ifndef SPIKETRAP_CRASH_H
#define SPIKETRAP_CRASH_H

#include "spiketrap_crash_flag.h"

namespace __spiketrap {

// With crash_report=1, handles the fatal signals the program leaves at
// their default action: the reports are written, then the signal kills.
void crashInit();
// crashHandlerIs: in spiketrap_crash_flag.h.

} // namespace __spiketrap

#endif // SPIKETRAP_CRASH_H
