//===- spiketrap_platform.h - What the runtime asks of the OS ---*- C++ -*-===//
//
// The seam between what any platform shares and what is Linux's, as
// compiler-rt's sanitizer_common.h is to sanitizer_linux.cpp,
// sanitizer_posix.cpp and sanitizer_win.cpp. Shared files call only what
// this header declares; each topic is implemented in a file of its own
// named spiketrap_<topic>_linux.cpp (built on Linux only). A port adds
// spiketrap_<topic>_<os>.cpp files and leaves the shared files alone.
//
// Every function here may be called from a signal handler unless its
// comment says otherwise: no malloc, no locks, no stdio.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_PLATFORM_H
#define SPIKETRAP_PLATFORM_H

#include "spiketrap_defs.h"

#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

//===-- Threads and processes (spiketrap_process_linux.cpp) --------------===//

//===-- Files and /proc (spiketrap_files_linux.cpp) ----------------------===//

//===-- Waiting: futexes (spiketrap_futex_linux.cpp) ---------------------===//

//===-- Ticks: the per-thread timer and its signal -----------------------===//
//===-- (spiketrap_ticks_linux.cpp) ---------------------------------------===//

//===-- Loaded objects and their symbols (spiketrap_objects_linux.cpp) ---===//

//===-- Memory: mapping and protecting pages (spiketrap_memory_linux.cpp) ===//

} // namespace __spiketrap

#endif // SPIKETRAP_PLATFORM_H
