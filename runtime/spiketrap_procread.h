//===- spiketrap_procread.h - Reading /proc without the program's table -===//
//
// The runtime reads /proc files now and then (a thread's schedstat and
// status for its run delay, /proc/self/stat for the program's end). Opening
// one takes the lowest free descriptor of the process for a moment: the
// program's own open got another number, or failed at RLIMIT_NOFILE. So the
// files are opened by a thread of the runtime that has a descriptor table
// of its own (close_range(CLOSE_RANGE_UNSHARE) at its start): the
// program's table is never touched, and a full one does not stop a read.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_PROCREAD_H
#define SPIKETRAP_PROCREAD_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

// Reads Path (absolute, under /proc) into Text, NUL-terminated; the bytes
// read, or 0. Asks the reader thread and waits for it (a few ms at most:
// then 0); async-signal-safe. Before the reader runs (start-up) or where it
// cannot, opens the file itself.
size_t procRead(const char *Path, char *Text, size_t Size);

// The reader runs and /proc/self/stat cannot be opened (no /proc).
bool procUnreadable();

// The reader thread is the watcher's (spiketrap_watcher.cpp starts and
// joins it, with its own): Prepare, start a thread running Loop, then
// Started (null: it could not start, and readings are made directly).
// Stopping asks it to end and gives the thread to join, then Stopped. Each
// sleep of a thread waiting for the reader counts in its
// ThreadState::ProcReadSleeps. Prepare is false where the OS has no /proc
// (no thread is started).
bool procReaderPrepare();
void procReaderLoop(void *);
void procReaderStarted(const pthread_t *T);
bool procReaderStopping(pthread_t &T);
void procReaderStopped();
void procReaderAfterForkChild();

// verbosity=1: what the reader did and cost (its thread's CPU time), and
// how long its callers waited for it.
struct ProcReaderStats {
  uint64_t Readings, Failed, CpuNs, WaitNs;
};
ProcReaderStats procReaderStats();

} // namespace __spiketrap

#endif
