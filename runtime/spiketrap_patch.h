//===- spiketrap_patch.h - Switching patchable sites ------------*- C++ -*-===//
//
// A function timed through a patchable site (plugin/Sites.cpp) is switched on
// and off by rewriting one instruction at its entry. Whoever changes a
// descriptor's `off` (adaptive mode, enabled=0) asks for its site to follow
// with requestPatch: lock-free, async-signal-safe, no system call. The
// rewriting happens in batches, off the program's threads, in
// applyPendingPatches (docs/design.md, "Patched sites").
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_PATCH_H
#define SPIKETRAP_PATCH_H

#include "spiketrap.h"

#include <stdint.h>

namespace __spiketrap {

// D's `off` changed: make its site (if it has one) follow. A request the
// queue has no room for is dropped and counted: the trampoline still honours
// `off`, only more slowly.
void requestPatch(spiketrap_desc *D);

// Rewrites the sites of the requested descriptors to match their `off`:
// each run of pages made writable once (mprotect), every instruction
// written with one aligned store, the pages made read-only again. Called by
// the thread that switched a function (adaptive mode's look, a spike's
// re-arm, enabled=0) right after its request: a hot function would
// otherwise pass the trampoline thousands of times, a re-armed one must be
// timed at its next call. If another thread (or a handler this one
// interrupted) is patching, that one applies the request when done.
// Async-signal-safe; one mprotect pair per batch, once per switch of a
// function; no thread of the runtime's own.
void applyPendingPatchesNow();

// The same, waiting for a batch in progress (the watcher thread's sweep).
void applyPendingPatches();

// Before a shared object is unloaded: apply what is pending, forgetting
// the requests for descriptors in [Lo, Hi).
void patchDetachRange(uintptr_t Lo, uintptr_t Hi);

// Around fork: a batch is never half done in the child.
void patchBeforeFork();
void patchAfterForkParent();
void patchAfterForkChild();

// At start-up: the request queue (before any hook may ask), and whether the
// system lets code be rewritten.
void patchInit();

// What patching did, for verbosity=1 and the bench: batches, sites
// rewritten, pages made writable, requests dropped; and whether the
// system lets us patch at all.
struct PatchStats {
  uint64_t Batches, Sites, Pages, Dropped, Refused;
  bool Works;
};
PatchStats patchStats();

} // namespace __spiketrap

#endif // SPIKETRAP_PATCH_H
