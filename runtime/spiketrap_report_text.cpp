//===- spiketrap_report_text.cpp - The report people read -----------------===//
//
// A summary table of the culprits (ReportModel::blame), then PET's log,
// grouped: each distinct stack that ended in a spike, worst instance first,
// with the duration of every level that also ran over its own threshold;
// then the suggestions and one line of totals.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_registry.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_waits.h"

#include <algorithm>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

void printSpikeHeadline(Buffer &B, const SpikeRecord &R) {
  const SpikeLevel &Top = R.Level[R.Levels - 1];
  formatDuration(B, durationNs(R));
  B.format(" in ");
  printLocation(B, Top.Desc);
  B.format(", threshold ");
  formatDuration(B, thresholdNs(Top));
}

namespace {

// Pads B with spaces from column Col to Width; at least one space.
void padTo(Buffer &B, size_t Col, size_t Width) {
  do
    B.push_back(' ');
  while (B.size() - Col < Width);
}

void printDurationCell(Buffer &B, uint64_t Ns) {
  size_t Col = B.size();
  if (Ns == kNever)
    B.format("never");
  else
    formatDuration(B, Ns);
  padTo(B, Col, 11);
}

// A caller in a chain, short: without its argument list and without
// "(anonymous namespace)::", which rarely tell callers apart (the spike's
// stack below has every name in full).
void printShortName(Buffer &B, const char *N) {
  static const char Anon[] = "(anonymous namespace)::";
  size_t Len = strlen(N), End = Len;
  if (Len && N[Len - 1] == ')') {
    for (size_t I = Len, Depth = 0; I-- > 0;) {
      if (N[I] == ')') {
        ++Depth;
      } else if (N[I] == '(' && --Depth == 0) {
        End = I ? I : Len;
        break;
      }
    }
  }
  for (size_t I = 0; I < End;)
    if (!strncmp(N + I, Anon, sizeof(Anon) - 1))
      I += sizeof(Anon) - 1;
    else
      B.push_back(N[I++]);
}

// The culprit and the chain of callers that spiked because of it, nearest
// first, shortened: "load (a.c:3) < level < ... < frame (5 levels)".
void printChain(Buffer &B, const ReportModel &M, const CulpritRow &Row) {
  constexpr size_t kNear = 3; // callers named before the "..."
  if (Row.Blamed != Row.Fn) { // named by samples: below the spiking function
    B.format("~ ");
    printLocation(B, Row.Blamed);
    B.format(" (sampled)");
  } else {
    printLocation(B, Row.Fn);
    if (M.blame(Row.Worst).How == BlameHow::Waits)
      B.format(" (waits)");
    else if (M.blame(Row.Worst).How == BlameHow::Preempted)
      B.format(" (preempted)");
  }
  if (M.wholeRun(Row.Worst))
    B.format(" (whole run)");
  // Run by a signal handler: the handler's own time, not its caller's.
  if (int Sig = M.record(Row.Worst).Signo) {
    if (const char *N = sigabbrev_np(Sig))
      B.format(" (SIG{} handler)", N);
    else
      B.format(" (signal {} handler)", Sig);
  }
  size_t Levels = Row.Blamed != Row.Fn, Outer = Row.Worst;
  for (size_t P = Row.Worst; P != kNone; P = M.parent(P))
    ++Levels, Outer = P;
  size_t Shown = 0;
  if (Row.Blamed != Row.Fn) {
    B.format(" < ");
    printShortName(B, __spiketrap_desc_name(Row.Fn));
    ++Shown;
  }
  for (size_t P = M.parent(Row.Worst); P != kNone; P = M.parent(P)) {
    if (Shown == kNear && P != Outer) {
      B.format(" < ...");
      P = Outer;
    }
    const SpikeRecord &O = M.record(P);
    B.format(" < ");
    printShortName(B, __spiketrap_desc_name(O.Level[O.Levels - 1].Desc));
    ++Shown;
  }
  if (Shown + 1 < Levels)
    B.format(" ({} levels)", Levels);
}

void printSummary(Buffer &B, const ReportModel &M) {
  if (!M.numRows())
    return;
  B.format("spikes  worst      median     p95        threshold  spiked/calls  "
           "culprit < callers that spiked\n");
  size_t Limit = size_t(flags.report_functions);
  for (size_t I = 0; I < M.numRows() && I < Limit; ++I) {
    const CulpritRow &Row = M.row(I);
    const SpikeRecord &W = M.record(Row.Worst);
    B.format("{:>6}  ", Row.Spikes);
    printDurationCell(B, Row.WorstNs);
    printDurationCell(B, Row.MedianNs);
    printDurationCell(B, Row.P95Ns);
    printDurationCell(B, thresholdNs(W.Level[W.Levels - 1]));
    // With its spikes whose records were dropped (a full arena), on the
    // function's first row.
    uint64_t Spiked = Row.Spikes;
    bool First = true;
    for (size_t J = 0; J < I && First; ++J)
      First = M.row(J).Fn != Row.Fn;
    if (size_t Id = M.functionId(Row.Fn); First && Id != kNone)
      Spiked += M.function(Id).AllSpikes - M.function(Id).Spikes;
    // calls is a plain increment shared by threads: never below the spikes.
    uint64_t Calls =
        std::max(__atomic_load_n(&__spiketrap_desc_state(Row.Fn)->calls,
                                 __ATOMIC_RELAXED),
                 Spiked);
    size_t Col = B.size();
    B.format("{}/{} {}%", Spiked, Calls, Spiked * 100 / Calls);
    padTo(B, Col, 14);
    printChain(B, M, Row);
    B.push_back('\n');
  }
  if (M.numRows() > Limit)
    B.format("({} more rows not shown; raise report_functions or read "
             "the JSON report)\n",
             M.numRows() - Limit);
  B.push_back('\n');
}

const char *sigName(int Sig) {
  const char *N = sigabbrev_np(Sig);
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
    B.format("{}{}{} page fault{}", Sep, AtLeast, Faults, Faults == 1 ? "" : "s");
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
  if (!M.sampledCulprit(I)) // in its own code, or no one callee: it is the culprit
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

void printGroup(Buffer &B, const ReportModel &M, const StackGroup &G) {
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

// Calls the watchdog saw stuck, with the stack they were stuck in.
void printHangs(Buffer &B, const ReportModel &M) {
  for (size_t I = 0; I < M.numHangs(); ++I) {
    const SpikeRecord &R = M.hang(I);
    B.format("hang: ");
    printLocation(B, R.Level[R.Levels - 1].Desc);
    B.format(" showed no sign of life for ");
    formatDuration(B, durationNs(R));
    B.format(", thread {} (tid {}), ", R.ThreadName[0] ? R.ThreadName : "?",
             R.Tid);
    formatDuration(B, endNs(R));
    if (size_t Ret = M.hangReturn(I); Ret != kNone) {
      B.format(" after start; it returned after ");
      formatDuration(B, durationNs(M.record(Ret)));
      B.push_back('\n');
    } else {
      B.format(" after start; it had not returned when this report was "
               "written\n");
    }
    for (uint32_t L = 0; L < R.Levels; ++L) {
      B.format("  #{:<2} ", L);
      printLocation(B, R.Level[L].Desc);
      B.push_back('\n');
    }
  }
}

// A deep open stack (a runaway recursion) shows its ends: this many
// outermost calls (the recursion's caller) and innermost ones kept.
constexpr uint32_t kOpenEnds = 6;

// The N open levels from level First of O left out of its line: how many,
// and the function most of them are (the one recursing). Quadratic in N
// (at most kMaxDepth): no memory to take in a crash.
void printLeftOut(Buffer &B, const ReportModel &M, const OpenStack &O,
                  uint32_t First, uint32_t N) {
  const spiketrap_desc *Most = nullptr;
  uint32_t MostCalls = 0;
  for (uint32_t L = First; L < First + N; ++L) {
    const spiketrap_desc *D = M.openLevel(O.First + L).Desc;
    uint32_t Calls = 0;
    for (uint32_t K = First; K < First + N; ++K)
      Calls += M.openLevel(O.First + K).Desc == D;
    if (Calls > MostCalls) {
      Most = D;
      MostCalls = Calls;
    }
  }
  if (MostCalls == N)
    B.format(" > ... {} calls, all {} ...", N, __spiketrap_desc_name(Most));
  else
    B.format(" > ... {} calls, {} of them {} ...", N, MostCalls,
             __spiketrap_desc_name(Most));
}

// Calls still open on any thread (uftrace's "remaining functions"),
// outermost first; a deep stack by its ends, with how deep it is.
void printOpen(Buffer &B, const ReportModel &M) {
  for (size_t I = 0; I < M.numOpen(); ++I) {
    const OpenStack &O = M.open(I);
    B.format("open: thread {} (tid {})", O.Name[0] ? O.Name : "?", O.Tid);
    bool Deep = O.Levels > 2 * kOpenEnds + 4;
    if (Deep || O.Past)
      B.format(", {} calls deep", O.Levels + O.Past);
    B.push_back(':');
    for (uint32_t L = 0; L < O.Levels; ++L) {
      if (Deep && L == kOpenEnds) {
        printLeftOut(B, M, O, L, O.Levels - 2 * kOpenEnds);
        L = O.Levels - kOpenEnds - 1;
        continue;
      }
      const SpikeLevel &V = M.openLevel(O.First + L);
      B.format(L ? " > {} " : " {} ", __spiketrap_desc_name(V.Desc));
      formatDuration(B, M.openNs(V));
    }
    // Calls past the capacity have no frame: only their number is known.
    if (O.Past)
      B.format(" > ... {} calls past depth {}, not kept", O.Past, kMaxDepth);
    B.push_back('\n');
  }
}

// Calls over their threshold only by idle waiting, not spikes: how many,
// and the functions that had most (all of them in the JSON).
void printIdle(Buffer &B) {
  uint64_t N = idleCalls();
  if (!N)
    return;
  B.format("spiketrap: {} idle call{} over {} threshold {}: ", N,
           N == 1 ? "" : "s", N == 1 ? "its" : "their",
           flags.report_idle ? "(shown above, marked idle)"
                             : "not reported (report_idle=1 lists them)");
  Array<const IdleFunction *> Idle(kIdleFunctions);
  size_t Num = sortedIdle(Idle);
  constexpr size_t kShown = 5;
  for (size_t I = 0; I < Num && I < kShown; ++I) {
    const IdleFunction &F = *Idle[I];
    B.format("{}{} {} (worst ", I ? ", " : "", __spiketrap_desc_name(F.Desc),
             F.Calls);
    formatDuration(B, worstNs(F));
    B.format(" in {})", waitCallName(F.Call));
  }
  if (Num > kShown)
    B.format(" and {} more functions", Num - kShown);
  B.push_back('\n');
}

// A full arena: what the records kept are, and the functions whose spikes
// were dropped, with all their spikes (most dropped first).
void printDropped(Buffer &B, const ReportModel &M, const SpikeTotals &S) {
  if (!S.Dropped)
    return;
  B.format("spiketrap: the spike memory was full: it kept the longest spikes "
           "it had room for ({} kept, {} dropped",
           S.Recorded, S.Dropped);
  if (S.Replaced)
    B.format(", {} of them replaced by longer ones", S.Replaced);
  B.format("); raise spike_memory to keep more");
  Array<size_t> F(M.numFunctions());
  size_t Num = 0;
  for (size_t I = 0; I < M.numFunctions() && F; ++I)
    if (M.function(I).AllSpikes > M.function(I).Spikes)
      F[Num++] = I;
  auto Lost = [&](size_t I) {
    return M.function(I).AllSpikes - M.function(I).Spikes;
  };
  sortBy(F.begin(), F.begin() + Num, [&](size_t A, size_t B) {
    return Lost(A) != Lost(B) ? Lost(A) > Lost(B) : A < B;
  });
  constexpr size_t kShown = 5;
  for (size_t I = 0; I < Num && I < kShown; ++I) {
    const FunctionStats &Fn = M.function(F[I]);
    B.format("{}{} {} of {} (worst ", I ? ", " : "; dropped by function: ",
             __spiketrap_desc_name(Fn.Desc), Lost(F[I]), Fn.AllSpikes);
    formatDuration(B, Fn.AllWorstNs);
    B.push_back(')');
  }
  if (Num > kShown)
    B.format(" and {} more functions", Num - kShown);
  B.push_back('\n');
}

void printSuggestions(Buffer &B, const ReportModel &M) {
  Array<Suggestion> S(M.numSpiking());
  size_t N = suggest(M, S);
  // The run-time form first: no rebuild to try them.
  if (N)
    B.format("suggest: these lines are a list: SPIKETRAP_OPTIONS=list=<file> "
             "applies it at run time, -mllvm -spiketrap-list=<file> at the "
             "next compile\n");
  for (size_t I = 0; I < N; ++I) {
    const FunctionStats &F = M.function(S[I].Function);
    if (!listNameOk(__spiketrap_desc_name(F.Desc)))
      continue; // a line to paste into a list: not with a newline in it
    B.format("suggest: [threshold=");
    formatListDuration(B, S[I].ThresholdNs);
    B.format("] fun:");
    formatListName(B, __spiketrap_desc_name(F.Desc));
    B.format("  # ");
    printSuggestionReason(B, F);
    B.push_back('\n');
  }
}

} // namespace

void writeText(Buffer &B, const ReportModel &M) {
  B.format("==== spiketrap report (pid {}): calls over ", getpid());
  formatDuration(B, flags.threshold);
  B.format(" or their own threshold ====\n");
  printSummary(B, M);
  size_t Limit = size_t(flags.report_stacks);
  for (size_t G = 0; G < M.numGroups() && G < Limit; ++G)
    printGroup(B, M, M.group(G));
  if (M.numGroups() > Limit)
    B.format("({} more stacks not shown; raise report_stacks to see them)\n",
             M.numGroups() - Limit);
  printHangs(B, M);
  if (M.numOpen())
    B.format("calls open when this report was written, with how long each "
             "had been open:\n");
  printOpen(B, M);
  printSuggestions(B, M);
  // Before the totals, which stay the report's last line but for notes on
  // calls not timed (idle, lost).
  if (M.size() && preemptionSource() == PreemptionSource::None)
    B.format("spiketrap: self times may include preemption (time waiting for "
             "a CPU): not measured, {}\n",
             preemptionUnknownWhy());
  SpikeTotals S = spikeTotals();
  ThreadTotals T = threadTotals();
  B.format("spiketrap: {} spikes, ", S.Recorded);
  if (S.Hangs)
    B.format("{} hangs, ", S.Hangs);
  B.format("{} instrumented calls, {} threads, {} "
           "dropped records, {} calls past depth {}; clock {} ({} MHz)\n",
           T.Calls, T.Threads, S.Dropped, T.Overflows, kMaxDepth, clockName(),
           theClock.TicksPerSecond / 1000000);
  printDropped(B, M, S);
  printIdle(B);
  // Untimed past the capacity, and left there by longjmp or an exception:
  // the thread's timing stopped until a hook above them.
  if (T.Lost)
    B.format("spiketrap: {} of the calls past depth {} on {} threads were "
             "left without returning (longjmp, exception); their threads "
             "were not timed until the next instrumented call above them\n",
             T.Lost, kMaxDepth, T.LostThreads);
}

} // namespace __spiketrap
