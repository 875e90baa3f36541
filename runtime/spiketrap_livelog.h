//===- spiketrap_livelog.h - PET-style lines as spikes happen ---*- C++ -*-===//
#ifndef SPIKETRAP_LIVELOG_H
#define SPIKETRAP_LIVELOG_H

namespace __spiketrap {

// With live_log=1, starts the thread that prints new spike records to
// stderr every few milliseconds.
void liveLogStart();
// Prints the records the thread has not printed yet (before the report at
// exit, so the log is complete). Does nothing without live_log=1.
void liveLogFlush();
// In a forked child: a new lock (the parent's thread may have held it at the
// fork), nothing printed yet of the child's own records, and a new thread.
void liveLogAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_LIVELOG_H
