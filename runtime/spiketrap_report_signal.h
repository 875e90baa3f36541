//===- spiketrap_report_signal.h - A report on a signal ---------*- C++ -*-===//
#ifndef SPIKETRAP_REPORT_SIGNAL_H
#define SPIKETRAP_REPORT_SIGNAL_H

namespace __spiketrap {

// With report_signal=SIG, installs its handler and the thread that writes
// the report when it arrives.
void reportSignalStart();

} // namespace __spiketrap

#endif // SPIKETRAP_REPORT_SIGNAL_H
