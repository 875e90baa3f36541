//===- spiketrap_adaptive.h - Switching off calls that never spike -*- C++
//-*-===//
//
// Most instrumented calls are short and stay short. The exit hook counts the
// calls that take 1/kCloseRatio of their threshold or more ("near"); every
// kAdaptEvery calls of a function the enter hook takes a look: a function
// with at most one near call in kNearShare is skippable. With
// adaptive=1 its descriptor's `off` is set, and the code the pass emits
// stops calling the hooks for it; a spike below it is then reported at its
// nearest caller still timed. skip_list= writes the skippable functions as a
// list file, so the next compile leaves them out entirely.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_ADAPTIVE_H
#define SPIKETRAP_ADAPTIVE_H

#include "spiketrap.h"
#include "spiketrap_defs.h"

#include <stdint.h>

namespace __spiketrap {

class Buffer;
class ReportModel;

// A power of two (a mask test). 4096 from the sweep in docs/performance.md:
// 4x less timed learning than 16384; 1024 switches off a function with one
// near call in 500 at its first look 39% of the time (4096: 9%, 16384: 0.1%).
constexpr uint64_t kAdaptEvery = 4096;
constexpr uint64_t kCloseRatio = 20;  // "near": 1/kCloseRatio of the threshold
constexpr uint64_t kNearShare = 1024; // skippable: at most 1 near call in this

// The look, from the enter hook (cold). ThresholdTicks: the frame's own or
// inherited threshold, 0 for the global one.
void adaptLook(spiketrap_desc *D, uint64_t ThresholdTicks);

// Before a shared object is unloaded: forget its descriptors.
void adaptDetachRange(uintptr_t Lo, uintptr_t Hi);

// skip_list=: the skippable functions as a [never] section.
void writeSkipList(Buffer &B, const ReportModel &M);

} // namespace __spiketrap

#endif // SPIKETRAP_ADAPTIVE_H
