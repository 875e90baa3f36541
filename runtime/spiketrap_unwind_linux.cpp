//===- spiketrap_unwind_linux.cpp - Where a caught exception ends ---------===//
//
// An exception through a function timed at a patchable site runs no exit
// hook: its frame stays open until a later hook finds it dead. The C++
// runtime calls __cxa_begin_catch in the catching function, where every
// frame the exception left is dead: closing them there gives the spikes
// among them their real end. Interposed weakly: a static program's
// libstdc++.a keeps its own (and its frames close at the next hook).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_defs.h"
#include "spiketrap_hooks.h"

#include <dlfcn.h>

using namespace __spiketrap;

SPIKETRAP_INTERPOSE void *
__cxa_begin_catch(void *Exception) noexcept {
  using BeginCatchFn = void *(*)(void *);
  static BeginCatchFn Real;
  // The slot of our return address: the frames the exception left were
  // called from the same stack pointer, or below it.
  closeFramesLeftBelow(uintptr_t(__builtin_frame_address(0)) + sizeof(void *));
  // Looked up by the first catch on any thread: an atomic pointer.
  BeginCatchFn F = __atomic_load_n(&Real, __ATOMIC_ACQUIRE);
  if (!F) {
    F = reinterpret_cast<BeginCatchFn>(dlsym(RTLD_NEXT, "__cxa_begin_catch"));
    __atomic_store_n(&Real, F, __ATOMIC_RELEASE);
  }
  return F ? F(Exception) : Exception;
}
