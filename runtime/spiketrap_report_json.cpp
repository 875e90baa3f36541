//===- spiketrap_report_json.cpp - The report tools load ------------------===//
//
// Every spike with its full stack, the per-function summary and the run's
// metadata, as JSON: schema "spiketrap-report" version 1, described in
// docs/report-format.md. Times are integer nanoseconds (no floating point in
// the runtime); spike times count from the run's start.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_platform.h"
#include "spiketrap_registry.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_sigaction.h"
#include "spiketrap_spikes.h"
#include "spiketrap_waits.h"

#include <algorithm>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

// Bump when a field changes meaning or goes away; adding fields keeps it.
constexpr int kJsonVersion = 1;

namespace {

// Thresholds: null for a frame that is never reported.
void jsonThreshold(Buffer &B, const SpikeLevel &L) {
  if (uint64_t Ns = thresholdNs(L); Ns == kNever)
    B.format("null");
  else
    B.format("{}", Ns);
}

void writeCommandLine(Buffer &B) {
  B.push_back('[');
  Buffer Raw;
  programArguments(Raw);
  Raw.push_back('\0');
  // Arguments end in NUL each; the extra one ends the list.
  for (size_t I = 0; I + 1 < Raw.size(); I += strlen(Raw.data() + I) + 1) {
    if (I)
      B.push_back(',');
    jsonString(B, Raw.data() + I);
  }
  B.push_back(']');
}

void writeThreads(Buffer &B, const ReportModel &M) {
  Array<const SpikeRecord *> T(M.size());
  for (size_t I = 0; I < M.size(); ++I)
    T[I] = &M.record(I);
  // Each thread once, with the name of its first spike (records lie in the
  // arena oldest first).
  sortBy(T.begin(), T.end(), [](const SpikeRecord *A, const SpikeRecord *B) {
    return A->Tid != B->Tid ? A->Tid < B->Tid : A < B;
  });
  B.format("\"threads\":[");
  for (size_t I = 0; I < T.size(); ++I) {
    if (I && T[I]->Tid == T[I - 1]->Tid)
      continue;
    B.format("{}{{\"tid\":{},\"name\":", I ? "," : "", T[I]->Tid);
    jsonString(B, T[I]->ThreadName);
    B.push_back('}');
  }
  B.push_back(']');
}

// Calls over their threshold only by idle waiting (not spikes), by
// function, most first: "idle_calls" and "idle":[...] of the run.
void writeIdle(Buffer &B) {
  B.format("\"idle_calls\":{},\"idle\":[", idleCalls());
  Array<const IdleFunction *> Idle(kIdleFunctions);
  size_t N = sortedIdle(Idle);
  for (size_t I = 0; I < N; ++I) {
    const IdleFunction &F = *Idle[I];
    B.format("{}{{\"name\":", I ? "," : "");
    jsonString(B, __spiketrap_desc_name(F.Desc));
    B.format(",\"file\":");
    const char *File = __spiketrap_desc_file(F.Desc);
    jsonString(B, File ? File : "");
    B.format(",\"line\":{},\"calls\":{},\"worst_ns\":{},\"call\":\"{}\"}}",
             __spiketrap_desc_line(F.Desc), F.Calls, worstNs(F),
             waitCallName(F.Call));
  }
  B.format("],");
}

void writeRun(Buffer &B, const ReportModel &M) {
  SpikeTotals S = spikeTotals();
  ThreadTotals T = threadTotals();
  B.format("\"runs\":[{{\"pid\":{},\"run_id\":\"{}\",\"host\":", getpid(),
           runId());
  Buffer Host;
  formatHost(Host);
  Host.push_back('\0');
  jsonString(B, Host.data());
  B.format(",\"program\":");
  jsonString(B, programPath());
  B.format(",\"build_id\":\"{}\",\"command_line\":", buildId());
  writeCommandLine(B);
  B.format(",\"start_time\":\"");
  formatStartTime(B, /*Iso=*/true);
  B.format("\",\"start_time_ns\":{},\"duration_ns\":{},\"clock\":\"{}\","
           "\"ticks_per_second\":{},\"threshold_ns\":{},\"max_depth\":{},"
           "\"options_text\":",
           startRealtimeNs(), runNs(), clockName(), theClock.TicksPerSecond,
           flags.threshold, kMaxDepth);
  jsonString(B, optionsText());
  B.format(",\"options\":");
  flags.writeJson(B);
  B.format(",\"totals\":{{\"spikes\":{},\"hangs\":{},\"dropped\":{},"
           "\"replaced\":{},\"calls\":{},\"threads\":{},"
           "\"calls_past_max_depth\":{},\"calls_past_max_depth_lost\":{},"
           "\"frames\":{}}},",
           S.Recorded, S.Hangs, S.Dropped, S.Replaced, T.Calls, T.Threads,
           T.Overflows,
           T.Lost, __atomic_load_n(&frameNumber, __ATOMIC_RELAXED));
  static const char *const Preemption[] = {"none", "run_delay",
                                           "kernel_events"};
  B.format("\"preemption\":\"{}\",", Preemption[int(preemptionSource())]);
  writeIdle(B);
  writeThreads(B, M);
  B.format("}}]");
}

void writeFunctions(Buffer &B, const ReportModel &M) {
  Array<Suggestion> Sugg(M.numSpiking());
  size_t NumSugg = suggest(M, Sugg);
  B.format("\"functions\":[");
  for (size_t F = 0; F < M.numFunctions(); ++F) {
    const FunctionStats &S = M.function(F);
    B.format("{}\n{{\"id\":{},\"name\":", F ? "," : "", F);
    jsonString(B, __spiketrap_desc_name(S.Desc));
    B.format(",\"file\":");
    const char *File = __spiketrap_desc_file(S.Desc);
    // Code that was never instrumented, found by sampling: its object file.
    bool Symbol = madeForSymbol(S.Desc);
    jsonString(B, File && !Symbol ? File : "");
    if (Symbol) {
      B.format(",\"object\":");
      jsonString(B, File ? File : "");
      B.format(",\"instrumented\":false");
    }
    // A signal handler timed by the runtime's trampoline as one frame.
    if (signalHandlerDesc(S.Desc))
      B.format(",\"signal_handler\":true");
    B.format(",\"line\":{},\"calls\":{},\"spikes\":{}",
             __spiketrap_desc_line(S.Desc),
             __atomic_load_n(&__spiketrap_desc_state(S.Desc)->calls,
                             __ATOMIC_RELAXED),
             S.Spikes);
    // Spikes whose records a full arena dropped: counted all the same.
    if (S.AllSpikes > S.Spikes)
      B.format(",\"all_spikes\":{},\"all_worst_ns\":{}", S.AllSpikes,
               S.AllWorstNs);
    if (S.Spikes) {
      const SpikeRecord &W = M.record(S.Worst);
      B.format(",\"worst_ns\":{},\"median_ns\":{},\"p95_ns\":{},\"worst_"
               "spike\":{},\"threshold_ns\":",
               S.WorstNs, S.MedianNs, S.P95Ns, S.Worst);
      jsonThreshold(B, W.Level[W.Levels - 1]);
    }
    for (size_t I = 0; I < NumSugg; ++I)
      if (Sugg[I].Function == F)
        B.format(",\"suggested_threshold_ns\":{}", Sugg[I].ThresholdNs);
    B.push_back('}');
  }
  B.push_back(']');
}

void writeMessages(Buffer &B, const SpikeRecord &R, uint32_t L) {
  if (const char *Msg = R.message(L, MessageDesc)) {
    B.format(",\"message\":");
    jsonString(B, Msg);
  }
  if (const char *Msg = R.message(L, MessageOverThreshold)) {
    B.format(",\"ot_message\":");
    jsonString(B, Msg);
  }
}

void writeSpike(Buffer &B, const ReportModel &M, size_t I) {
  const SpikeRecord &R = M.record(I);
  const SpikeLevel &Top = R.Level[R.Levels - 1];
  size_t Parent = R.Levels > 1 ? M.ownSpike(I, R.Levels - 2) : kNone;
  B.format("{}\n{{\"id\":{},\"run\":0,\"tid\":{},\"thread\":", I ? "," : "", I,
           R.Tid);
  jsonString(B, R.ThreadName);
  B.format(",\"function\":{},\"start_ns\":{},\"duration_ns\":{},"
           "\"threshold_ns\":",
           M.functionId(Top.Desc), startNs(Top), durationNs(R));
  jsonThreshold(B, Top);
  B.format(",\"child_spike_ns\":{},\"child_ns\":{},\"leaf\":{},\"parent\":",
           M.childSpikeNs(I), childNs(Top), M.covered(I) ? "false" : "true");
  if (Parent == kNone)
    B.format("null");
  else
    B.format("{}", Parent);
  if (R.Frame)
    B.format(",\"frame\":{}", R.Frame);
  if (R.Unwound) // left by an exception or longjmp: ended by End
    B.format(",\"unwound\":true");
  if (R.Signo) // run by a signal handler, from level SignalLevel on
    B.format(",\"signal\":{},\"signal_level\":{}", R.Signo, R.SignalLevel);
  if (R.NumCandidates) { // its self time may be theirs: they were not timed
    const char *Sep = "";
    B.format(",\"untimed_callees\":[");
    forEachCandidate(R, [&](const spiketrap_desc *C) {
      B.format("{}{}", Sep, M.functionId(C));
      Sep = ",";
    });
    B.push_back(']');
  }
  if (R.NumRecent) { // recent_calls=: what ran before it, oldest first
    B.format(",\"recent\":[");
    for (uint32_t C = 0; C < R.NumRecent; ++C) {
      const RecentCall &RC = R.recent()[C];
      B.format("{}{{\"function\":{},\"start_ns\":{},\"duration_ns\":{},"
               "\"depth\":{}}}",
               C ? "," : "", M.functionId(RC.Desc), startNs(RC), durationNs(RC),
               RC.Depth);
    }
    B.push_back(']');
  }
  if (R.Sampled.Samples) { // sample=: where the samples agree it went
    B.format(",\"sampled\":{{\"samples\":{},\"culprit\":",
             R.Sampled.Samples);
    if (const spiketrap_desc *C = M.sampledCulprit(I))
      B.format("{},\"agree\":{},\"blocked\":{},\"start_ns\":{},"
               "\"estimated_ns\":{},\"seen_ns\":{}",
               M.functionId(C), R.Sampled.Agree, R.Sampled.Blocked,
               sampledStartNs(R),
               sampledEstimateNs(R),
               sampledSeenNs(R));
    else
      B.format("null");
    B.push_back('}');
  }
  { // what the report blames this spike's time on (the model decides)
    const Blame &C = M.blame(I);
    static const char *const How[] = {"own", "waits", "sampled",
                                      "preempted"};
    B.format(",\"culprit\":{{\"function\":{},\"how\":\"{}\",\"spike\":{}}}",
             M.functionId(C.Desc), How[int(C.How)], C.Spike);
  }
  if (preemptionMeasured(R)) // waiting for a CPU, at least
    B.format(",\"preempted_ns\":{}", preemptedNs(R));
  if (R.Idle) // report_idle=1: over its threshold only by idle waiting
    B.format(",\"idle\":true");
  if (M.wholeRun(I)) // the program's driver rather than a spike
    B.format(",\"whole_run\":true");
  if (R.LongestWaitDesc) { // the longest wait in the C library inside it
    B.format(",\"longest_wait\":{{\"call\":\"{}\",\"ns\":{},\"function\":{}{}}}",
             waitCallName(R.LongestWaitCall), longestWaitNs(R),
             M.functionId(R.LongestWaitDesc),
             R.LongestWaitIdle ? ",\"idle\":true" : "");
    if (R.WaitLowerBound)
      B.format(",\"wait_lower_bound\":true");
  }
  B.format(",\"stack\":[");
  for (uint32_t L = 0; L < R.Levels; ++L) {
    size_t Own = L + 1 == R.Levels ? I : M.ownSpike(I, L);
    B.format("{}{{\"function\":{},\"start_ns\":{},\"threshold_ns\":",
             L ? "," : "", M.functionId(R.Level[L].Desc), startNs(R.Level[L]));
    jsonThreshold(B, R.Level[L]);
    if (Own != kNone)
      B.format(",\"spike\":{}", Own);
    if (R.Level[L].WaitTicks)
      B.format(",\"wait_ns\":{}", waitNs(R.Level[L]));
    if (R.Level[L].IdleTicks)
      B.format(",\"idle_ns\":{}", idleNs(R.Level[L]));
    // Untimed functions sampling found between this level and the next
    // (below the last: the culprit chain).
    bool Any = false;
    for (size_t K = 0; K < M.numSampled(I); ++K)
      if (M.sampled(I, K).After == L) {
        B.format("{}{}", Any ? "," : ",\"sampled_callees\":[",
                 M.functionId(M.sampled(I, K).Desc));
        Any = true;
      }
    if (Any)
      B.push_back(']');
    if (R.HasKernel) { // kernel_events=1
      const KernelLevel &K = R.kernel()[L];
      B.format(",\"kernel\":{{\"minor_faults\":{},\"major_faults\":{},"
               "\"preemptions\":{},\"preempted_ns\":{},\"blocked_ns\":{}{}}}",
               K.MinorFaults, K.MajorFaults, K.Preemptions, K.PreemptedNs,
               K.BlockedNs, K.LowerBound ? ",\"lower_bound\":true" : "");
    }
    writeMessages(B, R, L);
    B.push_back('}');
  }
  B.format("]}}");
}

// An open stack's levels: [{"function":id,"start_ns":n}, ...].
void writeOpenLevels(Buffer &B, const ReportModel &M, const SpikeLevel *L,
                     uint32_t N) {
  B.push_back('[');
  for (uint32_t I = 0; I < N; ++I)
    B.format("{}{{\"function\":{},\"start_ns\":{}}}", I ? "," : "",
             M.functionId(L[I].Desc), startNs(L[I]));
  B.push_back(']');
}

void writeHangs(Buffer &B, const ReportModel &M) {
  B.format("\"hangs\":[");
  for (size_t I = 0; I < M.numHangs(); ++I) {
    const SpikeRecord &R = M.hang(I);
    const SpikeLevel &Top = R.Level[R.Levels - 1];
    B.format("{}\n{{\"id\":{},\"run\":0,\"tid\":{},\"thread\":", I ? "," : "",
             I, R.Tid);
    jsonString(B, R.ThreadName);
    B.format(",\"function\":{},\"start_ns\":{},\"seen_ns\":{},"
             "\"stuck_ns\":{},\"returned_spike\":",
             M.functionId(Top.Desc), startNs(Top), endNs(R), durationNs(R));
    if (size_t Ret = M.hangReturn(I); Ret != kNone)
      B.format("{}", Ret);
    else
      B.format("null");
    B.format(",\"stack\":");
    writeOpenLevels(B, M, R.Level, R.Levels);
    B.push_back('}');
  }
  B.format("],\n\"open\":[");
  for (size_t I = 0; I < M.numOpen(); ++I) {
    const OpenStack &O = M.open(I);
    B.format("{}\n{{\"run\":0,\"tid\":{},\"thread\":", I ? "," : "", O.Tid);
    jsonString(B, O.Name);
    B.format(",\"at_ns\":{},", M.builtAtNs());
    if (O.Past)
      B.format("\"calls_past_depth\":{},", O.Past);
    B.format("\"stack\":");
    writeOpenLevels(B, M, &M.openLevel(O.First), O.Levels);
    B.push_back('}');
  }
  B.push_back(']');
}

} // namespace

void writeJson(Buffer &B, const ReportModel &M) {
  B.format("{{\"format\":\"spiketrap-report\",\"version\":{},\n", kJsonVersion);
  writeRun(B, M);
  B.format(",\n");
  writeFunctions(B, M);
  B.format(",\n\"spikes\":[");
  for (size_t I = 0; I < M.size(); ++I)
    writeSpike(B, M, I);
  B.format("],\n");
  writeHangs(B, M);
  B.format("}}\n");
}

} // namespace __spiketrap
