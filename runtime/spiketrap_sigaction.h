//===- spiketrap_sigaction.h - The program's signal handlers ----*- C++ -*-===//
#ifndef SPIKETRAP_SIGACTION_H
#define SPIKETRAP_SIGACTION_H

#include "spiketrap.h"

namespace __spiketrap {

// Start-up: finds glibc's signal(), which ours calls.
void signalInit();
// In a forked child: the handler table's lock is made anew (another thread
// of the parent may have held it at the fork).
void signalAfterForkChild();
// Before a report (never in a crash: it reads object files; signalInit
// sets it as the report's hook): the descriptors made for handlers the
// trampoline timed get their names.
void nameSignalHandlers();
// Whether D is a descriptor made for a signal handler (the trampoline's).
bool signalHandlerDesc(const spiketrap_desc *D);

} // namespace __spiketrap

#endif // SPIKETRAP_SIGACTION_H
