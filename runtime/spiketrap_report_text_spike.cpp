//===- spiketrap_report_text_spike.cpp - One spike in the text report ----===//
//
// A distinct stack that ended in a spike, as the text report prints it: its
// worst instance's levels with their durations, messages, waits, self
// time, kernel events, the switched-off callees timed again, the sampled
// frames below and the recent calls; then the other threads' instances.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_registry.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_platform.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_waits.h"

#include <algorithm>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

const char *sigName(int Sig) {
  const char *N = signalName(Sig);
  return N ? N : "?";
}

// The group's other threads, each once: the same stack on a thread pool is
// one story, but which threads it touched matters.
void printOtherThreads(Buffer &B, const ReportModel &M, const StackGroup &G) {
  constexpr size_t kMaxListed = 8;
  uint32_t Shown[kMaxListed + 1] = {M.record(G.Worst).Tid};
  size_t NumShown = 1, More = 0;
  for (size_t I = 0; I < G.Times; ++I) {
    const SpikeRecord &R = M.record(M.leaf(G.First + I));
    size_t S = 0; // a plain loop: std::find's unrolled copy is 131 bytes
    while (S < NumShown && Shown[S] != R.Tid)
      ++S;
    if (S < NumShown)
      continue;
    if (NumShown == kMaxListed + 1) {
      ++More; // counts spikes, not threads, past the list: cheap and enough
      continue;
    }
    B.format("{}thread {} (tid {})", NumShown == 1 ? "  also on " : ", ",
             R.ThreadName[0] ? R.ThreadName : "?", R.Tid);
    Shown[NumShown++] = R.Tid;
  }
  if (More)
    B.format(" and {} more spikes on other threads", More);
  if (NumShown > 1)
    B.push_back('\n');
}

// What the program said about this level (spiketrap_messagef and
// spiketrap_ot_messagef), indented under it.
void printMessages(Buffer &B, const SpikeRecord &R, uint32_t L) {
  if (const char *Msg = R.message(L, MessageDesc))
    B.format("        message: {}\n", Msg);
  if (const char *Msg = R.message(L, MessageOverThreshold))
    B.format("        over threshold: {}\n", Msg);
}

// How much of a level that spiked (its record O) waited in the C library,
// on what, from where; the rest it was running (or preempted).
void printWaits(Buffer &B, const SpikeRecord &O, uint32_t L) {
  uint64_t Wait = O.Level[L].WaitTicks;
  uint64_t Idle = O.Level[L].IdleTicks;
  if (!Wait || !O.LongestWaitDesc)
    return;
  B.format("        waited {}", O.WaitLowerBound ? "at least " : "");
  formatDuration(B, waitNs(O.Level[L]));
  // Idle waits (sleeps, readiness, a worker's wait for work) are the
  // thread's choice; the rest held it up (docs/selection.md).
  if (Idle == Wait) {
    B.format(" idle");
  } else if (Idle) {
    B.format(", ");
    formatDuration(B, idleNs(O.Level[L]));
    B.format(" of it idle,");
  }
  // Waits of O's spiking call are inside every level of it.
  bool Longest = O.LongestWaitTicks && O.LongestWaitTicks < Wait;
  if (Longest) {
    B.format(" (longest ");
    formatDuration(B, longestWaitNs(O));
  }
  B.format(" in {} from ", waitCallName(O.LongestWaitCall));
  printLocation(B, O.LongestWaitDesc);
  if (Longest)
    B.push_back(')');
  B.format("; running {}", O.WaitLowerBound ? "at most " : "");
  formatDuration(B, runningNs(O, L));
  B.push_back('\n');
}

// Self time against time in timed callees (and those that spiked) and
// time waiting for a CPU, of a level that spiked (its record I): "(self
// 1.2 ms, callees 3.4 ms, preempted 20.1 ms)". Self time is without the
// level's own preemption when that is shown (here, or kernel_events=1's
// line).
void printSelf(Buffer &B, const ReportModel &M, size_t I) {
  const SpikeRecord &O = M.record(I);
  const SpikeLevel &Top = O.Level[O.Levels - 1];
  bool Callees = Top.ChildTicks && Top.ChildTicks <= O.durationTicks();
  // The run delay's, when it matters: 1/20 of the call, or all its lateness.
  uint64_t Pre = O.HasRunDelay ? O.RunDelayNs : 0;
  if (Pre && Pre * 20 < durationNs(O) && !M.preempted(I))
    Pre = 0;
  if (!Callees && !Pre)
    return;
  B.format(" (self ");
  formatDuration(B, Pre || O.HasKernel ? M.selfRunningNs(I) : selfNs(O));
  if (Callees) {
    B.format(", callees ");
    formatDuration(B, childNs(Top));
  }
  if (Pre) {
    B.format(", preempted ");
    formatDuration(B, Pre);
  }
  B.push_back(')');
}

// What the kernel did to a level that spiked (its record O), with
// kernel_events=1: "3 page faults (1 major); preempted 2 times for 4.210 ms".
void printKernel(Buffer &B, const SpikeRecord &O, uint32_t L) {
  if (!O.HasKernel)
    return;
  const KernelLevel &K = O.kernel()[L];
  uint32_t Faults = K.MinorFaults + K.MajorFaults;
  if (!Faults && !K.PreemptedNs && !K.BlockedNs)
    return;
  const char *AtLeast = K.LowerBound ? "at least " : "";
  const char *Sep = "        kernel: ";
  if (Faults) {
    B.format("{}{}{} page fault{}", Sep, AtLeast, Faults,
             Faults == 1 ? "" : "s");
    if (K.MajorFaults)
      B.format(" ({} major)", K.MajorFaults);
    Sep = "; ";
  }
  if (K.PreemptedNs) {
    B.format("{}preempted {}{} time{} for ", Sep, AtLeast, K.Preemptions,
             K.Preemptions == 1 ? "" : "s");
    formatDuration(B, K.PreemptedNs);
    Sep = "; ";
  }
  if (K.BlockedNs) {
    B.format("{}off the CPU waiting ", Sep);
    formatDuration(B, K.BlockedNs);
  }
  B.push_back('\n');
}

// A spike whose time was in its function's own code while callees were
// switched off (adaptive mode) may belong to one of them: say so, by name.
void printCandidates(Buffer &B, const ReportModel &M, const StackGroup &G) {
  size_t Times = 0, Last = kNone;
  for (size_t I = 0; I < G.Times; ++I) // preemption is in no callee
    if (size_t K = M.leaf(G.First + I);
        M.record(K).NumCandidates && !M.preempted(K))
      ++Times, Last = K;
  if (!Times)
    return;
  const SpikeRecord &R = M.record(Last);
  B.format("  untimed: ");
  if (G.Times > 1)
    B.format("in {} of these spikes, ", Times);
  B.format("{}'s self time may be in callees that adaptive mode had "
           "switched off (timed again since):\n",
           __spiketrap_desc_name(R.Level[R.Levels - 1].Desc));
  forEachCandidate(R, [&](const spiketrap_desc *C) {
    B.format("    candidate: ");
    printLocation(B, C);
    B.push_back('\n');
  });
}

// The functions sampling found on the stack below level L that ran untimed
// (switched off, never instrumented), down to the next timed level.
void printSampledBelow(Buffer &B, const ReportModel &M, size_t I, uint32_t L) {
  for (size_t K = 0; K < M.numSampled(I); ++K) {
    const SampledLevel &S = M.sampled(I, K);
    if (S.After != L || S.Culprit)
      continue;
    B.format("      ~ ");
    printLocation(B, S.Desc);
    B.push_back('\n');
  }
}

// Where the samples taken while the spiking call ran agree its time went:
// the chain of untimed frames below it, as deep as most of them agree.
// Indent: of the first line (the spike's own: 2; a level's: 8).
void printCulprit(Buffer &B, const ReportModel &M, size_t I,
                  unsigned Indent = 2) {
  const SpikeRecord &R = M.record(I);
  const SampledStats &S = R.Sampled;
  if (!M.sampledCulprit(
          I)) // in its own code, or no one callee: it is the culprit
    return;
  // Most of them found the thread blocked: it waited there, in a call the
  // runtime does not time as a wait.
  bool Waited = S.Blocked * 2 > S.Agree;
  B.format("{:{}}sampled: {} of {} samples agree, the culprit {} for about ",
           "", Indent, S.Agree, S.Samples, Waited ? "waited" : "ran");
  formatDuration(B, sampledEstimateNs(R));
  B.format(" (seen for ");
  formatDuration(B, sampledSeenNs(R));
  B.format("){}:\n", Waited ? ", blocked in a call not timed as a wait" : "");
  for (size_t K = 0; K < M.numSampled(I); ++K)
    if (M.sampled(I, K).Culprit) {
      B.format("{:{}}~ ", "", Indent + 4);
      printLocation(B, M.sampled(I, K).Desc);
      B.push_back('\n');
    }
}

// recent_calls=: the thread's last timed calls before the spike, newest
// last, with when each started relative to the spiking call.
void printRecent(Buffer &B, const SpikeRecord &R) {
  constexpr uint32_t kShown = 10; // the JSON has them all
  if (!R.NumRecent)
    return;
  uint32_t First = R.NumRecent > kShown ? R.NumRecent - kShown : 0;
  B.format("  the last {} timed calls on this thread (of {} kept), in the "
           "order they returned; start relative to the spike's:\n",
           R.NumRecent - First, R.NumRecent);
  for (uint32_t I = First; I < R.NumRecent; ++I) {
    const RecentCall &C = R.recent()[I];
    bool Before;
    uint64_t Offset = startOffsetNs(R, C, Before);
    B.format("    {}", Before ? "-" : "+");
    formatDuration(B, Offset);
    B.format("  {:{}}", "", 2 * C.Depth);
    printLocation(B, C.Desc);
    B.format("  ");
    formatDuration(B, durationNs(C));
    B.push_back('\n');
  }
}

} // namespace

void printSpikeGroup(Buffer &B, const ReportModel &M, const StackGroup &G) {
  const SpikeRecord &R = M.record(G.Worst);
  B.format("spike: ");
  printSpikeHeadline(B, R);
  B.format("\n  thread {} (tid {}), ", R.ThreadName[0] ? R.ThreadName : "?",
           R.Tid);
  if (R.Frame)
    B.format("frame {}, ", R.Frame);
  formatDuration(B, startNs(R.Level[R.Levels - 1]));
  B.format(" after start");
  if (R.Signo)
    B.format(", in a SIG{} handler", sigName(R.Signo));
  if (G.Times > 1)
    B.format("; this stack spiked {} times, the worst is shown", G.Times);
  B.push_back('\n');
  if (R.Idle)
    B.format("  idle: over its threshold only by its idle waits "
             "(report_idle=1)\n");
  // Durations line up in one column after the longest location.
  size_t Width = 0;
  for (uint32_t L = 0; L < R.Levels; ++L) {
    Buffer Loc;
    printLocation(Loc, R.Level[L].Desc);
    Width = std::max(Width, Loc.size());
  }
  Width = std::min<size_t>(Width, 100) + 2;
  for (uint32_t L = 0; L < R.Levels; ++L) {
    if (R.Signo && L == R.SignalLevel)
      B.format("  -- SIG{} handler --\n", sigName(R.Signo));
    B.format("  #{:<2} ", L);
    size_t Col = B.size();
    printLocation(B, R.Level[L].Desc);
    size_t Own = L + 1 == R.Levels ? G.Worst : M.ownSpike(G.Worst, L);
    if (Own != kNone) {
      const SpikeRecord &O = M.record(Own);
      padTo(B, Col, Width);
      formatDuration(B, durationNs(O));
      B.format(" > ");
      formatDuration(B, thresholdNs(O.Level[L]));
      printSelf(B, M, Own);
    }
    B.push_back('\n');
    printMessages(B, R, L);
    if (Own != kNone) {
      if (M.record(Own).Unwound)
        B.format("        left by an exception or longjmp: ended by then\n");
      printWaits(B, M.record(Own), L);
      printKernel(B, M.record(Own), L);
    }
    // A caller that spiked in its own time too (a callee switched off
    // when it began): where that time went, and its untimed callees.
    if (Own != kNone && L + 1 < R.Levels) {
      printCulprit(B, M, Own, 8);
      const SpikeRecord &O = M.record(Own);
      if (O.NumCandidates && !M.preempted(Own)) {
        B.format("        untimed callees (timed again since):");
        const char *Sep = " ";
        forEachCandidate(O, [&](const spiketrap_desc *C) {
          B.format("{}", Sep);
          printLocation(B, C);
          Sep = ", ";
        });
        B.push_back('\n');
      }
    }
    printSampledBelow(B, M, G.Worst, L);
  }
  printCulprit(B, M, G.Worst);
  printCandidates(B, M, G);
  printRecent(B, R);
  printOtherThreads(B, M, G);
}

} // namespace __spiketrap
