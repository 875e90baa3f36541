//===- spiketrap_report.h - Writing the reports -----------------*- C++ -*-===//
//
// The entry points of spiketrap_report.cpp: at exit, from spiketrap_report(),
// from the report_signal thread and on a crash.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_REPORT_H
#define SPIKETRAP_REPORT_H

namespace __spiketrap {

// Writes every report the options ask for (text, JSON, skip list) to its
// destination. Crash: from a fatal signal's handler (spiketrap_crash.cpp): no
// lock is waited for.
void writeReport(bool Crash = false);
// What runs before each report outside a crash (it may read object files),
// set at start-up by a part above the report: the signal handlers' table
// names the descriptors it made (nameSignalHandlers).
void setBeforeReport(void (*Hook)());
// In a forked child: the report's lock is new (the thread that held it at
// the fork, if any, is not in the child).
void reportAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_H
