//===- spiketrap_lifecycle.h - fork and dlclose -----------------*- C++ -*-===//
#ifndef SPIKETRAP_LIFECYCLE_H
#define SPIKETRAP_LIFECYCLE_H

namespace __spiketrap {

// Registers the fork handlers (dlclose is interposed by its definition).
void lifecycleInit();
// exit() has begun (the report at exit is next): unloaded objects' hooks
// have nothing to do from now on.
void lifecycleExiting();

} // namespace __spiketrap

#endif // SPIKETRAP_LIFECYCLE_H
