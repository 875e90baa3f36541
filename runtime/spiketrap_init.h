//===- spiketrap_init.h - Runtime start-up ----------------------*- C++ -*-===//
#ifndef SPIKETRAP_INIT_H
#define SPIKETRAP_INIT_H

#include <stdint.h>

namespace __spiketrap {

// Reads SPIKETRAP_OPTIONS, calibrates the clock, allocates the spike arena
// and arranges the report at exit. Runs before any constructor of the
// program (preinit_array), or at the first hook call if that comes earlier.
// Idempotent and thread-safe. Env is the environment to read options from
// (null: the process's own, through getenv).
void runtimeInit(char **Env = nullptr);
// Start-up part of the run-time API (spiketrap_api.cpp): its options.
void apiInit();
// When the last spiketrap_frame_mark was, and on which thread (Ticks 0:
// never).
void lastFrameMark(uint64_t &Ticks, uint32_t &Tid);

} // namespace __spiketrap

#endif // SPIKETRAP_INIT_H
