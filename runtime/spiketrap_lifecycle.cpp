//===- spiketrap_lifecycle.cpp - fork, exit and unloading -----------------===//
//
// Process events that invalidate what the runtime holds, and what the
// runtime does at each: a forked child starts with a clean state and its
// own report; a shared object about to be unloaded must not leave
// descriptors behind in pending spike records. The platform's file
// (spiketrap_lifecycle_linux.cpp) catches the events (fork handlers, the
// interposed dlclose, _exit and exec) and calls these.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_lifecycle.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_background.h"
#include "spiketrap_flags.h"
#include "spiketrap_livelog.h"
#include "spiketrap_patch.h"
#include "spiketrap_platform.h"
#include "spiketrap_registry.h"
#include "spiketrap_report.h"
#include "spiketrap_report_signal.h"
#include "spiketrap_sigaction.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"
#include "spiketrap_watcher.h"

namespace __spiketrap {

namespace {
bool Exiting; // exit() has begun: the report at exit ran, or is running
} // namespace

void lifecycleExiting() { __atomic_store_n(&Exiting, true, __ATOMIC_RELEASE); }

void lifecycleAfterForkChild() {
  threadAfterForkChild();
  backgroundAfterForkChild();
  spikesAfterForkChild();
  signalAfterForkChild();
  RecursionGuard Guard;
  reportAfterForkChild();
  liveLogAfterForkChild();
  reportSignalAfterForkChild();
  watcherAfterForkChild();
}

void lifecycleForkedChildExits() {
  if (!flags.enabled || !flags.report_at_exit)
    return;
  SpikeTotals S = spikeTotals();
  if (S.Recorded || S.Hangs || S.Dropped)
    writeReport();
}

void lifecycleDetachRange(uintptr_t Lo, uintptr_t Hi) {
  if (!Hi)
    return;
  spikesDetachRange(Lo, Hi);
  adaptDetachRange(Lo, Hi);
  patchDetachRange(Lo, Hi);
}

} // namespace __spiketrap

using namespace __spiketrap;

// Called by the destructor the pass gives every instrumented shared object
// (plugin/Descriptor.cpp, emitUnloadHook), as it is unloaded: the same as
// the interposed dlclose, for programs whose dlclose is not ours (a
// sanitizer's interceptor, weak too, may be linked first). Not at exit: the
// report is written, the objects stay mapped, and a forked child's walk
// there could meet a loader's lock that a dlopen in the parent held at the
// fork.
SPIKETRAP_EXPORT void __spiketrap_object_unloading(const void *Addr) {
  if (__atomic_load_n(&Exiting, __ATOMIC_ACQUIRE))
    return;
  RecursionGuard Guard;
  uintptr_t Lo, Hi;
  if (sharedObjectHolding(uintptr_t(Addr), &Lo, &Hi))
    lifecycleDetachRange(Lo, Hi);
}
