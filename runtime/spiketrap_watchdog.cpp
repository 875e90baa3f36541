//===- spiketrap_watchdog.cpp - Calls that do not return (hang_after=) ----===//
//
// A spike is recorded when its call returns; a call that never returns would
// never be reported. With hang_after=, the watcher thread
// (spiketrap_watcher.cpp) looks at every thread's open stack a few times per
// limit, never touching the hooks. A
// thread whose call count and depth have not moved for hang_after (or that
// marks frames and has marked none for hang_after) is stuck in its
// innermost call open at least that long. It is reported at once (a line
// and the open stack on stderr, and a hang record in the arena that every
// report shows), and again when it returns.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_watchdog.h"
#include "spiketrap_api.h"
#include "spiketrap_capture.h"
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_registry.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_spikes.h"

namespace __spiketrap {

namespace {

uint64_t HangTicks;
uint64_t PeriodTicks, NextLook; // ticks between looks; the next look

void printHeader(Buffer &B, const SpikeRecord &R) {
  B.format("thread {} (tid {})", R.ThreadName[0] ? R.ThreadName : "?", R.Tid);
}

// What one look found, written to stderr once the registry lock is
// released: stderr may be a pipe nobody drains, and every thread start,
// thread exit and fork waits for that lock.
struct Look {
  uint64_t Now;
  Buffer Out;
};

void printHang(Buffer &B, const SpikeRecord &R) {
  B.format("spiketrap: hang: ");
  printHeader(B, R);
  B.format(" has been in ");
  printLocation(B, R.Level[R.Levels - 1].Desc);
  B.format(" for ");
  formatDuration(B, ticksToNs(R.durationTicks()));
  B.format(" and is still there; open stack:\n");
  for (uint32_t I = 0; I < R.Levels; ++I) {
    B.format("  #{:<2} ", I);
    printLocation(B, R.Level[I].Desc);
    B.format(", open ");
    formatDuration(B, ticksToNs(R.End - R.Level[I].Start));
    B.push_back('\n');
  }
}

// The hung call of T returned: its own spike record, written by its exit
// hook after the hang record, gives its real duration.
void printReturn(Buffer &B, const ThreadState &T, uint64_t Now) {
  SpikeReader Reading;
  const SpikeRecord *Hang = spikeAt(T.Watch.Record);
  if (!Hang)
    return;
  // After the hang record, or anywhere once the arena was full.
  const SpikeRecord *Done = nullptr;
  uint64_t Off = spikeArenaFull() ? 0 : T.Watch.Record;
  while (const SpikeRecord *R = nextSpike(&Off))
    if (!R->Hang && R->Tid == T.Tid && R->Levels == T.Watch.Level + 1 &&
        R->Level[T.Watch.Level].Desc == T.Watch.Desc &&
        R->Level[T.Watch.Level].Start == T.Watch.Start)
      Done = R;
  B.format("spiketrap: hang over: ");
  printHeader(B, *Hang);
  B.format(": ");
  printLocation(B, T.Watch.Desc);
  if (Done) {
    B.format(" returned after ");
    formatDuration(B, ticksToNs(Done->durationTicks()));
  } else { // it left by longjmp or an exception, or its record was dropped
    B.format(" left its frame after at most ");
    formatDuration(B, ticksToNs(Now - T.Watch.Start));
  }
  B.push_back('\n');
}

SPIKETRAP_RACY_READER void watch(ThreadState &T, void *P) {
  Look &L = *static_cast<Look *>(P);
  uint64_t Now = L.Now;
  uint8_t Status = SPIKETRAP_RACY(T.Status);
  // A paused thread's time is no one's; a busy one is in the runtime.
  if (Status != StatusActive)
    return;
  uint64_t Calls = SPIKETRAP_RACY(T.Calls);
  uint64_t Depth = SPIKETRAP_RACY(T.Depth);
  if (Calls != T.Watch.Calls || Depth != T.Watch.Depth || !T.Watch.Since) {
    T.Watch.Calls = Calls;
    T.Watch.Depth = Depth;
    T.Watch.Since = Now;
  }
  if (T.Watch.Desc) {
    if (Depth > T.Watch.Level &&
        SPIKETRAP_RACY(T.Frames[T.Watch.Level].Desc) == T.Watch.Desc &&
        SPIKETRAP_RACY(T.Frames[T.Watch.Level].Start) == T.Watch.Start)
      return; // still hung, already said
    printReturn(L.Out, T, Now);
    T.Watch.Desc = nullptr;
  }
  // Stuck: no hook call or return for the limit; or, on the thread that
  // marks frames, no frame for the limit (it may be looping through
  // instrumented calls inside one that does not return).
  bool Silent = Now - T.Watch.Since >= HangTicks;
  uint64_t Mark;
  uint32_t MarkTid;
  lastFrameMark(Mark, MarkTid);
  // A mark (or a call) newer than this look's Now is no hang: the thread
  // moved on after Now was taken.
  if (!Silent &&
      !(Mark && MarkTid == T.Tid && Mark <= Now && Now - Mark >= HangTicks))
    return;
  SpikeLevel Stack[kMaxDepth];
  uint64_t Seen;
  uint32_t N = snapshotStack(T, Stack, &Seen);
  if (Silent && Seen != Calls)
    return; // it moved while we looked
  // The innermost call open for the limit, among those to be reported.
  while (N && (Stack[N - 1].Start > Now ||
               Now - Stack[N - 1].Start < HangTicks ||
               Stack[N - 1].Threshold == kNever))
    --N;
  if (!N)
    return;
  uint64_t Off = recordHang(T, Stack, N, Now);
  T.Watch = {Calls, Depth, T.Watch.Since, Stack[N - 1].Desc,
             Stack[N - 1].Start, Off, N - 1};
  if (const SpikeRecord *R = spikeAt(Off))
    printHang(L.Out, *R);
  else
    L.Out.format("spiketrap: hang: thread {} has been stuck for a while, and "
                 "the spike memory is full (spike_memory=)\n",
                 T.Tid);
}

} // namespace

bool watchdogInit() {
  if (!flags.enabled || !flags.hang_after)
    return false;
  HangTicks = nsToTicks(flags.hang_after);
  // A few looks per limit: a hang is seen between 1 and 1.25 limits after
  // the last sign of life.
  uint64_t PeriodNs = flags.hang_after / 4;
  PeriodNs = PeriodNs < 10000000 ? 10000000 : PeriodNs;
  PeriodNs = PeriodNs > 1000000000 ? 1000000000 : PeriodNs;
  PeriodTicks = nsToTicks(PeriodNs);
  return true;
}

uint64_t watchdogTick(uint64_t Now) {
  if (Now >= NextLook) {
    Look L;
    L.Now = Now;
    forEachThread(watch, &L);
    // After the registry lock: stderr may be a pipe no one drains.
    if (L.Out.size())
      writeStderr(L.Out.data(), L.Out.size());
    NextLook = Now + PeriodTicks;
  }
  return NextLook;
}

void watchdogAfterForkChild() {
  // The child's one thread starts over: the fork reset its counters, and
  // what the parent's watchdog saw of it is the parent's.
  threadState.Watch = {};
  NextLook = 0;
}

} // namespace __spiketrap
