//===- spiketrap_background.h - The runtime's own threads -------*- C++ -*-===//
#ifndef SPIKETRAP_BACKGROUND_H
#define SPIKETRAP_BACKGROUND_H

#include <pthread.h>
#include <stdint.h>

namespace __spiketrap {

// Starts a thread running Body(Arg) that never runs hooks (it is marked busy
// for life) and never takes the program's signals. False if it could not.
// With Joinable, the thread can be joined (its handle there); else detached.
// StackSize: 0 for the C library's default.
bool startBackgroundThread(void (*Body)(void *), void *Arg,
                           pthread_t *Joinable = nullptr, size_t StackSize = 0);
// Joins a joinable thread of ours; returns when the kernel has let it go
// (the process counts one thread fewer).
void joinBackgroundThread(pthread_t T);
// Starts and joins a thread that only measures where a start routine's
// frame lies (noteThreadRoot): for a run without the watcher, whose thread
// measures it otherwise.
void backgroundMeasureThreadRoot();

// How many of the runtime's threads run, and whether a kernel thread id is
// one of them (the watcher's count of the program's threads).
uint32_t backgroundThreads();
bool backgroundThreadIs(uint32_t Tid);

// In a forked child: none of the runtime's threads came along.
void backgroundAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_BACKGROUND_H
