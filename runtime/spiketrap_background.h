//===- spiketrap_background.h - The runtime's own threads -------*- C++ -*-===//
#ifndef SPIKETRAP_BACKGROUND_H
#define SPIKETRAP_BACKGROUND_H

#include <pthread.h>

namespace __spiketrap {

// Starts a thread running Body(Arg) that never runs hooks (it is marked busy
// for life) and never takes the program's signals. False if it could not.
// With Joinable, the thread can be joined (its handle there); else detached.
// StackSize: 0 for the C library's default.
bool startBackgroundThread(void (*Body)(void *), void *Arg,
                           pthread_t *Joinable = nullptr, size_t StackSize = 0);
// A joinable thread of ours has been joined.
void backgroundThreadJoined();
// Starts and joins a thread that only measures where a start routine's
// frame lies (noteThreadRoot): for a run without the watcher, whose thread
// measures it otherwise.
void backgroundMeasureThreadRoot();

// Whether every thread of the program has ended and only the runtime's are
// left (the program's last thread ended with pthread_exit: the C library
// would exit(0) then, were it not for ours). Reads /proc: now and then.
bool programThreadsGone();

// In a forked child: none of the runtime's threads came along.
void backgroundAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_BACKGROUND_H
