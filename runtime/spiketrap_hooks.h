//===- spiketrap_hooks.h - What the hooks offer the runtime -----*- C++ -*-===//
//
// The hooks themselves (__spiketrap_enter/_exit/_enter_late, and the
// trampolines' enter) are the public ABI, declared by the pass. This header
// declares what the rest of the runtime asks of them.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_HOOKS_H
#define SPIKETRAP_HOOKS_H

#include <stdint.h>

namespace __spiketrap {

// The calling thread's frames whose activation lies at or below Addr were
// left without an exit hook (an exception being caught above them): close
// them now, recording those over their threshold as spikes.
void closeFramesLeftBelow(uintptr_t Addr);

} // namespace __spiketrap

#endif // SPIKETRAP_HOOKS_H
