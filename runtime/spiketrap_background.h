//===- spiketrap_background.h - The runtime's own threads -------*- C++ -*-===//
#ifndef SPIKETRAP_BACKGROUND_H
#define SPIKETRAP_BACKGROUND_H

namespace __spiketrap {

// Starts a thread running Body(Arg) that never runs hooks (it is marked busy
// for life) and never takes the program's signals. False if it could not.
bool startBackgroundThread(void (*Body)(void *), void *Arg);

} // namespace __spiketrap

#endif // SPIKETRAP_BACKGROUND_H
