//===- spiketrap_signal.h - Signal handlers as interrupt context -*- C++ -*-===//
//
// PET refused to run in interrupt context; our interrupt context is the
// signal handler, and we run there. Handlers installed with sigaction() or
// signal() are wrapped by a trampoline (spiketrap_sigaction.cpp) that
// records a SignalContext on the thread: the depth at delivery (frames below
// it belong to the interrupted code, whatever their addresses: the handler
// may run on an alternate stack) and where the handler's frames live. Spikes inside a handler are
// marked as such. A handler left by siglongjmp leaves a stale context behind;
// the hooks' slow paths drop it as soon as an activation lies outside it.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_SIGNAL_H
#define SPIKETRAP_SIGNAL_H

#include "spiketrap_thread.h"

namespace __spiketrap {

// Drops the contexts of handlers that are no longer running, judged by Addr,
// an activation running now. Returns the depth below which frames must stay:
// the innermost live handler's floor, or 0.
uint32_t signalFloor(ThreadState &T, uintptr_t Addr);

} // namespace __spiketrap

#endif // SPIKETRAP_SIGNAL_H
