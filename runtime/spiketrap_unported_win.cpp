//===- spiketrap_unported_win.cpp - What Windows does not have yet --------===//
//
// The interfaces shared code calls whose Linux files are built on signals,
// /proc, perf events, seccomp or ELF interposition, as the Windows runtime
// has them today: each says what a Windows program gets instead. Each goes
// when its Windows file comes (docs/windows.md, "Not yet"):
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
ProcReaderStats procReaderStats() { return {}; }
// Nothing is interposed: no wait wrapper asks for a static program's call.
void *staticWait(uint32_t) { return nullptr; }

} // namespace __spiketrap
