//===- spiketrap_report_signal.h - A report on a signal ---------*- C++ -*-===//
#ifndef SPIKETRAP_REPORT_SIGNAL_H
#define SPIKETRAP_REPORT_SIGNAL_H

#include <stdint.h>

namespace __spiketrap {

// With report_signal=SIG, installs its handler and the thread that writes
// the report when it arrives.
void reportSignalStart();
// In a forked child, where only the forking thread lives: a new semaphore
// and a new thread, so the child reports on the signal too.
void reportSignalAfterForkChild();
// Whether Fn is the runtime's handler of report_signal= (installed through
// the interposed sigaction: its trampoline takes its time apart, but it is
// no program handler to report).
bool reportSignalHandlerIs(uintptr_t Fn);

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_SIGNAL_H
