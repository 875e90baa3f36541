//===- spiketrap_watcher.h - The runtime's watcher thread -------*- C++ -*-===//
#ifndef SPIKETRAP_WATCHER_H
#define SPIKETRAP_WATCHER_H

namespace __spiketrap {

// Starts the watcher thread, if anything needs it (sample=1, hang_after=).
void watcherStart();
// In a forked child: a new watcher thread, if the parent had one.
void watcherAfterForkChild();

// Around a call that needs a single-threaded process (unshare and setns
// into a user or mount namespace): the watcher thread ends and is joined,
// then starts again. watcherPause says whether it was running.
bool watcherPause();
void watcherResume();

} // namespace __spiketrap

#endif // SPIKETRAP_WATCHER_H
