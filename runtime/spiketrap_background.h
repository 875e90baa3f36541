//===- spiketrap_background.h - The runtime's own threads -------*- C++ -*-===//
#ifndef SPIKETRAP_BACKGROUND_H
#define SPIKETRAP_BACKGROUND_H

namespace __spiketrap {

// Starts a thread running Body(Arg) that never runs hooks (it is marked busy
// for life) and never takes the program's signals. False if it could not.
bool startBackgroundThread(void (*Body)(void *), void *Arg);

// Whether the runtime's own threads are all that is left of the process
// (its threads ended with pthread_exit, or a forked child's only thread
// did): a background thread must then end too, or the process would never
// exit. Reads /proc/self/status: for now and then, not every tick.
bool onlyRuntimeThreadsLeft();

// In a forked child, which has none of the parent's threads.
void backgroundAfterForkChild();

} // namespace __spiketrap

#endif // SPIKETRAP_BACKGROUND_H
