//===- spiketrap_livelog.cpp - PET-style lines as spikes happen -----------===//
//
// PET logged each spike as it happened. Formatting inside the hook is not an
// option, so a background thread polls the spike arena and prints what is
// new: the full stack for a thread's first spike, then one line for each
// caller of it that also went over its threshold as that caller returns, as
// PET's log did.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_livelog.h"
#include "spiketrap_arch.h"
#include "spiketrap_background.h"
#include "spiketrap_flags.h"
#include "spiketrap_platform.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_sandbox.h"

#include <pthread.h>
#include <time.h>

namespace __spiketrap {

namespace {

constexpr long kPollNs = 20 * 1000000; // fast enough to follow a frame loop
pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
bool Started;
uint64_t Next; // arena offset of the first record not printed yet

// The last full stack printed per thread (a small direct-mapped table; a
// collision only costs a full stack where a short line would do).
struct Last {
  uint32_t Tid;
  const SpikeRecord *R;
};
Last LastStack[64];

bool callerOf(const SpikeRecord &Caller, const SpikeRecord *Deeper) {
  if (!Deeper || Deeper->Levels <= Caller.Levels)
    return false;
  const SpikeLevel &C = Caller.Level[Caller.Levels - 1];
  const SpikeLevel &D = Deeper->Level[Caller.Levels - 1];
  return C.Desc == D.Desc && C.Start == D.Start;
}

void printSpike(Buffer &B, const SpikeRecord &R) {
  const SpikeLevel &Top = R.Level[R.Levels - 1];
  Last &L = LastStack[R.Tid % 64];
  bool Caller = L.Tid == R.Tid && callerOf(R, L.R);
  B.format("spiketrap: spike ");
  printSpikeHeadline(B, R);
  B.format(", thread {} (tid {})", R.ThreadName[0] ? R.ThreadName : "?", R.Tid);
  if (Caller) {
    B.format(": #{} of the stack above\n", R.Levels - 1);
    return;
  }
  B.format(", ");
  formatDuration(B, startNs(Top));
  B.format(" after start\n");
  for (uint32_t I = 0; I < R.Levels; ++I) {
    B.format("  #{:<2} ", I);
    printLocation(B, R.Level[I].Desc);
    B.push_back('\n');
  }
  L = {R.Tid, &R};
}

// The records written since the last flush, in arena order. (Once the arena
// is full, a spike that replaces a shorter one is in the report, not here.)
void flushLocked() {
  Buffer B;
  {
    SpikeReader Reading;
    while (const SpikeRecord *R = nextSpike(&Next))
      printSpike(B, *R);
    // A full arena replaces records once we stop reading: forget them.
    if (spikeArenaFull())
      for (Last &L : LastStack)
        L.R = nullptr;
  }
  writeStderr(B.data(), B.size());
}

void pollLoop(void *) {
  for (;;) {
    // A seccomp filter on every thread (SECCOMP_FILTER_FLAG_TSYNC) may
    // kill nanosleep: the thread only waits from then on.
    if (sandboxed()) {
      static int Never;
      futexWait(&Never, 0, nullptr);
      continue;
    }
    timespec T{0, kPollNs};
    nanosleep(&T, nullptr);
    liveLogFlush();
  }
}

} // namespace

namespace {
void startThread() {
  bool Ok = startBackgroundThread(pollLoop, nullptr);
  __atomic_store_n(&Started, Ok, __ATOMIC_RELEASE);
  if (!Ok)
    logLine("live_log: cannot start its thread; spikes are in the report");
}
} // namespace

void liveLogStart() {
  if (flags.enabled && flags.live_log) {
    startThread();
    flags.live_log = Started; // the JSON report's options say what is on
  }
}

void liveLogAfterForkChild() {
  if (!__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_init(&Lock, nullptr);
  Next = 0; // the child's arena starts empty
  for (Last &L : LastStack)
    L = {};
  startThread();
}

void liveLogFlush() {
  if (!__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&Lock);
  flushLocked();
  pthread_mutex_unlock(&Lock);
}

} // namespace __spiketrap
