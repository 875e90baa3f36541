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

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

namespace __spiketrap {

//===-- Threads and processes (spiketrap_process_linux.cpp) --------------===//

//===-- Files and /proc (spiketrap_files_linux.cpp) ----------------------===//

//===-- Waiting: futexes (spiketrap_futex_linux.cpp) ---------------------===//

//===-- Ticks: the per-thread timer and its signal -----------------------===//
//===-- (spiketrap_ticks_linux.cpp) ---------------------------------------===//

// This thread's CPU time (ns), from its CPU clock.
uint64_t tickThreadCpuNs();
// Notes this process's id (at start-up, in a forked child) for the signals
// a thread sends itself.
void tickNoteProcess();
// Whether this thread is in the process noted (not in a vfork child).
bool tickInNotedProcess();
// Not from a signal handler: picks a real-time signal at its default
// action (from the last down), measures a signal's round trip on this
// thread into *SignalNs and installs H for it; the signal, or 0: none.
int tickInstallHandler(void (*H)(int, siginfo_t *, void *), uint64_t *SignalNs);
// Makes thread Tid's timer on its CPU clock, which sends Sig to that
// thread, into *Id, not started (any thread may make it); false: none.
bool tickTimerCreate(uint32_t Tid, int Sig, int *Id);
// Starts timer Id, periodic, every Ns of its thread's CPU time (0: stops).
void tickTimerSet(int Id, uint64_t Ns);
// Deletes timer Id; a tick it queued goes with it.
void tickTimerDelete(int Id);
// Whether the signal whose siginfo is Info came from one of our timers.
bool tickFromOurTimer(const siginfo_t *Info);
// A signal Sig not from our timers: Sig to its default action and queued
// again as it came (held where the program blocks it on this thread).
void tickPassOn(int Sig, siginfo_t *Info, void *Uctx);
// This thread's voluntary context switches so far.
uint64_t tickVoluntarySwitches();
// Unblocks SIGSEGV and SIGBUS on this thread (a fault handler left by a jump).
void tickUnblockFaults();
// Blocks Sig on this thread (until a handler's return restores the mask).
void tickBlock(int Sig);
// Takes every Sig pending for this thread.
void tickTakePending(int Sig);
// The program's signal masks leave Sig unblocked (0: none); it reads back
// the masks it set.
void tickKeepUnblocked(int Sig);
// In a forked child: its process id, its signal masks its own.
void tickAfterForkChild();
// The room a signal frame takes on this CPU, with its alignment (bytes).
uintptr_t tickSignalFrameSize();
// The kernel's code for fast clock reads (the vDSO): [*Lo, *Hi), untouched
// when there is none.
void tickFastClockCode(uintptr_t *Lo, uintptr_t *Hi);
// Whether the unwinder finds unwind tables without taking a lock.
bool tickUnwindLockFree();
// Whether a sanitizer's runtime is loaded (its interceptors take the waits).
bool tickUnderSanitizer();
// Whether the program runs under valgrind.
bool tickUnderValgrind();
// Not from a signal handler: Size bytes of zeroed pages, resident (null: none).
void *tickMapResident(size_t Size);

//===-- Loaded objects and their symbols (spiketrap_objects_linux.cpp) ---===//

//===-- Memory: mapping and protecting pages (spiketrap_memory_linux.cpp) ===//

} // namespace __spiketrap

#endif // SPIKETRAP_PLATFORM_H
