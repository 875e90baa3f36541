//===- spiketrap_init.cpp - Runtime start-up ------------------------------===//
#include "spiketrap_init.h"
#include "spiketrap_api.h"
#include "spiketrap_clock.h"
#include "spiketrap_crash.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_kernel_events.h"
#include "spiketrap_lifecycle.h"
#include "spiketrap_livelog.h"
#include "spiketrap_patch.h"
#include "spiketrap_platform.h"
#include "spiketrap_recent.h"
#include "spiketrap_registry.h"
#include "spiketrap_report.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_report_signal.h"
#include "spiketrap_runlist.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_spikes.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_thread.h"
#include "spiketrap_waits.h"
#include "spiketrap_watcher.h"

#include <stdlib.h>
#include <string.h>

namespace __spiketrap {

namespace {

enum : int { NotStarted, Starting, Started };
int InitState = NotStarted;

void reportAtExit() {
  lifecycleExiting();
  // Where the watcher stops threads to tick them (Windows), it is stopped
  // first: killed midway by the process's end, Wine prints client errors.
  if (kTicksByWatcher)
    watcherPause();
  flushProgramOutput();
  writeReport();
}

// Preinit functions run before libc has set up getenv's environment; they
// are handed envp instead.
const char *findOptions(char **Env) {
  if (!Env)
    return getenv("SPIKETRAP_OPTIONS");
  static const char Name[] = "SPIKETRAP_OPTIONS=";
  for (; *Env; ++Env)
    if (strncmp(*Env, Name, sizeof(Name) - 1) == 0)
      return *Env + sizeof(Name) - 1;
  return nullptr;
}

// Drops every SPIKETRAP_OPTIONS= entry from the environment in place (Env is
// the array environ is set to later), as glibc drops LD_* for such a process.
void removeOptions(char **Env) {
  if (!Env) {
    unsetEnvironmentName("SPIKETRAP_OPTIONS");
    return;
  }
  static const char Name[] = "SPIKETRAP_OPTIONS=";
  char **To = Env;
  for (char **From = Env; *From; ++From)
    if (strncmp(*From, Name, sizeof(Name) - 1) != 0)
      *To++ = *From;
  *To = nullptr;
}

// A setuid/setgid (or file-capability) process must not let the invoking
// user choose paths it writes as another user (issue 13): the environment is
// ignored whole, the defaults hold, and the defaults write no file. The
// variable is removed too: a child the process starts after taking its
// privileges for good (setuid(0), then exec) is not a secure process, and
// would honour it (issue 34).
const char *optionsFrom(char **Env) {
  const char *Options = findOptions(Env);
  if (Options && processPrivileged()) {
    logLine("SPIKETRAP_OPTIONS ignored: this is a privileged (setuid, setgid "
            "or capability) process");
    removeOptions(Env);
    return nullptr;
  }
  return Options;
}

void initOnce(char **Env) {
  RecursionGuard Guard;
  stderrInit();
  sandboxInit();
  flags.setDefaults();
  const char *Options = optionsFrom(Env);
  flags.parse(Options);
  if (flags.help)
    flags.printHelp();
  if (flags.clock == ClockMode::Tsc && !arch::kHasCounter) {
    logLine("clock=tsc: this CPU has no counter the runtime reads; using "
            "CLOCK_MONOTONIC");
    flags.clock = ClockMode::Monotonic; // the JSON report's options say so
  } else if (flags.clock == ClockMode::Tsc && !counterUsable())
    logLine("clock=tsc: this CPU does not report an invariant TSC; using it "
            "anyway");
  clockInit(flags.clock);
  exitFastPath = theClock.UseCounter;
  recentInit();
  kernelEventsInit();
  // The run's wall-clock start, at the instant times in reports count from
  // (after the 5 ms calibration).
  reportInit(Options);
  globalThresholdTicks = nsToTicks(flags.threshold);
  runListInit(flags.list, flags.ignore);
  spikesInit(flags.spike_memory, flags.report_idle);
  patchInit();
  apiInit();
  threadInit();
  lifecycleInit();
  waitsInit();
  crashInit();
  if (flags.enabled && flags.report_at_exit)
    atexit(reportAtExit);
  if (flags.verbosity >= 1)
    logLine("clock {}, {} ticks per second; threshold {} ticks", clockName(),
            theClock.TicksPerSecond, globalThresholdTicks);
}

} // namespace

void runtimeInit(char **Env) {
  int Expected = NotStarted;
  if (__atomic_compare_exchange_n(&InitState, &Expected, Starting, false,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    initOnce(Env);
    __atomic_store_n(&InitState, Started, __ATOMIC_RELEASE);
    return;
  }
  // Another thread is starting the runtime: its hooks wait for it once.
  unsigned Spins = 0;
  while (__atomic_load_n(&InitState, __ATOMIC_ACQUIRE) != Started)
    backOff(Spins);
}

} // namespace __spiketrap

// Before every constructor of the program, so instrumented static
// constructors are timed; the constructor is the fallback where preinit
// arrays are not run (the runtime linked into a shared object).
static void spikeTrapPreinit(int, char **, char **Env) {
  __spiketrap::runtimeInit(Env);
}
__attribute__((section(".preinit_array"), used)) static void (
        *const SpikeTrapPreinitEntry)(int, char **, char **) = spikeTrapPreinit;
__attribute__((constructor(101))) static void spikeTrapConstructor() {
  __spiketrap::runtimeInit();
  // The report's threads start here, not in preinit, where libc is not
  // fully set up yet.
  __spiketrap::liveLogStart();
  __spiketrap::reportSignalStart();
  __spiketrap::watcherStart();
}

// Referenced by every instrumented object (see SPIKETRAP_ABI_VERSION): a link
// without the runtime, or with a runtime of another layout, names this symbol.
SPIKETRAP_EXPORT const char __spiketrap_abi_v10 = 1;
static_assert(SPIKETRAP_ABI_VERSION == 10,
              "rename __spiketrap_abi_v10 to match");
// The same as a number, for the no-op hooks of a shared library built for
// another layout, which do not need the marker (spiketrap_noop.cpp).
SPIKETRAP_EXPORT const int __spiketrap_runtime_abi = SPIKETRAP_ABI_VERSION;
