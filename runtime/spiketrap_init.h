//===- spiketrap_init.h - Runtime start-up ----------------------*- C++ -*-===//
#ifndef SPIKETRAP_INIT_H
#define SPIKETRAP_INIT_H

namespace __spiketrap {

// Reads SPIKETRAP_OPTIONS, calibrates the clock, allocates the spike arena
// and arranges the report at exit. Runs before any constructor of the
// program (preinit_array), or at the first hook call if that comes earlier.
// Idempotent and thread-safe. Env is the environment to read options from
// (null: the process's own, through getenv).
void runtimeInit(char **Env = nullptr);

} // namespace __spiketrap

#endif // SPIKETRAP_INIT_H
