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
#include "spiketrap_platform.h"
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
    if (const char *N = signalName(Sig))
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
    printSpikeGroup(B, M, M.group(G));
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
