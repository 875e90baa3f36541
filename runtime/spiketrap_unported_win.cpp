//===- spiketrap_unported_win.cpp - What Windows does not have yet --------===//
//
// The interfaces shared code calls whose Linux files are built on signals,
// /proc, perf events, seccomp or ELF interposition, as the Windows runtime
// has them today: each says what a Windows program gets instead. Each goes
// when its Windows file comes (docs/windows.md, "Not yet"):
//   - sampling (the watcher's SuspendThread + GetThreadContext + unwind):
//     no tick is installed (spiketrap_ticks_win.cpp), so none of the
//     sampler's handler runs, and a spike's stack is its timed frames;
//   - the program's signal handlers as interrupt contexts: the C runtime's
//     signal() calls a handler from raise() on the same thread, a plain
//     call, timed as such;
//   - the report on a signal (report_signal=): a console has none to send;
//   - perf events (kernel_events=), seccomp, /proc: Linux's alone.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_kernel_events.h"
#include "spiketrap_lifecycle.h"
#include "spiketrap_procread.h"
#include "spiketrap_report_signal.h"
#include "spiketrap_sampler.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_sigaction.h"
#include "spiketrap_waits.h"

namespace __spiketrap {

// No fork and no C library names to find: nothing to set up.
void lifecycleInit() {}

//===-- The program's signal handlers and the report on a signal ----------===//
void signalInit() {}
void signalAfterForkChild() {}
bool signalHandlerDesc(const spiketrap_desc *) { return false; }
void reportSignalStart() {}
void reportSignalAfterForkChild() {}

//===-- Perf events, seccomp, /proc ---------------------------------------===//
bool kernelEventsOn;
void kernelEventsInit() {}
void kernelEventsAttach(ThreadState &) {}
void kernelEventsDetach(ThreadState &) {}
bool sumKernelEvents(const ThreadState &, const SpikeLevel *, uint32_t,
                     uint64_t, KernelLevel *) {
  return false;
}
bool Sandboxed;
void sandboxInit() {}
bool sandboxCheck() { return false; }
bool sandboxNote() { return false; }
size_t procRead(const char *, char *, size_t) { return 0; }
bool procUnreadable() { return true; }
bool procReaderPrepare() { return false; }
void procReaderLoop(void *) {}
void procReaderStarted(const pthread_t *) {}
bool procReaderStopping(pthread_t &) { return false; }
void procReaderStopped() {}
void procReaderAfterForkChild() {}
// Nothing is interposed: no wait wrapper asks for a static program's call.
void *staticWait(uint32_t) { return nullptr; }

//===-- The sampler's tick ------------------------------------------------===//
namespace sampler_impl {
int SampleSig;
uint64_t ShareMilli;
uint64_t SignalNs;
uint32_t Epoch;
uint64_t SamplesTaken;
uint64_t UnwindFaults;
uint64_t StackSkips;
uintptr_t FrameNeed;
bool UnwindReady; // false: a spike's exit walks no stack (framesAbove)

void handler(int, siginfo_t *, void *) {}
void primeUnwinder() {}
void setTimer(SampleBuffer &, uint64_t) {}
uint64_t wantedPeriod(const SampleBuffer &) { return 0; }
uint32_t sampleFloor(const ThreadState &) { return 0; }
bool roomOnAltStack(const ThreadState &, uintptr_t, uintptr_t) {
  return false;
}
void walkStack(Walk &W) {
  W.Broken = true;
  W.Fn = 0;
}
} // namespace sampler_impl

void samplerHandlerOnAltStack(const ThreadState &, uintptr_t) {}
uint64_t samplerTicksIn(const ThreadState &, uint64_t, uint64_t) { return 0; }
void samplerFaultGuard(int) {}
void samplerForgetSamples() {}
bool samplerHandlerIs(const struct sigaction &) { return false; }
bool samplerHandlerIs(sighandler_t) { return false; }

} // namespace __spiketrap
