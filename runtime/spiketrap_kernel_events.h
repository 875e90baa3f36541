//===- spiketrap_kernel_events.h - Page faults and preemptions --*- C++ -*-===//
//
// With kernel_events=1, each thread asks the kernel (perf_event_open, software
// events: no PMU needed) to note every page fault it takes and every time it
// is switched out, with a CLOCK_MONOTONIC time stamp, in a small ring the
// kernel overwrites oldest first. Nothing runs in the hooks: only a spike
// reads the ring, on its own thread, and counts what fell inside each of its
// levels. The cost is the kernel's, a record per fault and per switch, and
// two file descriptors and 36 KiB of locked memory per thread: off by
// default.
//
//===----------------------------------------------------------------------===//
#ifndef SPIKETRAP_KERNEL_EVENTS_H
#define SPIKETRAP_KERNEL_EVENTS_H

#include "spiketrap_record.h"
#include "spiketrap_thread.h"

#include <stdint.h>

namespace __spiketrap {

// Whether threads get rings (kernel_events=1 and the kernel allows it).
extern bool kernelEventsOn SPIKETRAP_INTERNAL;

// Start-up: reads kernel_events and tries it on this thread once, so a
// kernel or seccomp policy that forbids it is one message, not one per thread.
void kernelEventsInit();
// At a thread's registration and exit; in a forked child (the inherited
// events watch the parent's thread).
void kernelEventsAttach(ThreadState &T);
void kernelEventsDetach(ThreadState &T);

// Counts T's events inside each of the N levels (their Start to End, in
// ticks) into Out[N]. On T's own thread (recordSpike). False if T has no
// ring.
bool sumKernelEvents(const ThreadState &T, const SpikeLevel *Level, uint32_t N,
                     uint64_t End, KernelLevel *Out);

} // namespace __spiketrap

#endif // SPIKETRAP_KERNEL_EVENTS_H
