//===- spiketrap_api.h - The run-time API's internals -----------*- C++ -*-===//
//
// What the rest of the runtime asks of spiketrap_api.cpp; the API itself is
// spiketrap.h's.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_API_H
#define SPIKETRAP_API_H

#include <stdint.h>

namespace __spiketrap {

// Start-up part of the run-time API: its options.
void apiInit();
// When the last spiketrap_frame_mark was, and on which thread (Ticks 0:
// never).
void lastFrameMark(uint64_t &Ticks, uint32_t &Tid);

} // namespace __spiketrap

#endif // SPIKETRAP_API_H
