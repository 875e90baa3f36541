//===- spiketrap_capture.h - A spike, from its call's end to a record -*- C++
//-*-===//
//
// Every record is made here: a timed call's spike (from the exit hooks and
// the signal-handler trampoline), a frame over its budget, and the hang
// watchdog's record of a call that has not returned. The store
// (spiketrap_spikes.h) only keeps them.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_CAPTURE_H
#define SPIKETRAP_CAPTURE_H

#include "spiketrap.h"
#include "spiketrap_record.h"
#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

// Where a spike is seen: at the exit hook, by a hook that finds the frame
// left by an exception or a longjmp (its end: when found), or at the end of
// a signal handler the runtime times (spiketrap_sigaction.cpp).
enum class SpikeFrom : uint8_t { Exit, Unwound, Handler };

// The call of T's open frame Depth - 1 ran over its threshold, ending at
// End: records it, unless it was over only by the sampler's ticks or by its
// idle waits (then counted: idleFunctions). Adaptive mode decides on it
// first (not for a handler), so its record holds what that found. On T's
// own thread; async-signal-safe.
void captureSpike(ThreadState &T, uint32_t Depth, uint64_t End, SpikeFrom From);

// Records a frame (between two frame marks) that ran over its budget, as a
// one-level spike of Desc.
void recordFrameSpike(ThreadState &T, const spiketrap_desc *Desc,
                      uint64_t Start, uint64_t End, uint64_t Budget,
                      uint64_t Frame);

// Copies the open frames of T, which may be running on another thread, into
// Out[kMaxDepth]; their number, or 0 when T kept calling while we looked.
// *Calls: T's call count the copy is valid for. Past the capacity only the
// outermost kMaxDepth calls have frames: with Past, those are copied and
// *Past counts the calls open beyond them; without, 0 (the innermost call is
// not known).
uint32_t snapshotStack(const ThreadState &T, SpikeLevel *Out, uint64_t *Calls,
                       uint32_t *Past = nullptr);
// Records the Levels open frames of T that the hang watchdog copied, the
// last of which had not returned at Now (a hang record is never replaced).
// Returns the record's arena offset, or UINT64_MAX when the arena is full of
// longer spikes.
uint64_t recordHang(ThreadState &T, const SpikeLevel *Level, uint32_t Levels,
                    uint64_t Now);

} // namespace __spiketrap

#endif // SPIKETRAP_CAPTURE_H
