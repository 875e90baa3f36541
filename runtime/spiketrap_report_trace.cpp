//===- spiketrap_report_trace.cpp - Chrome trace event JSON ---------------===//
//
// For ui.perfetto.dev and chrome://tracing: every spike as nested slices on
// its thread's track, its stack levels as the parents. A level shared by
// several spikes (the frame tick above two slow calls) is one slice. A level
// that did not spike itself has no recorded end: its slice ends with its last
// spiking callee, and says so.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_report_formats.h"

#include <algorithm>
#include <unistd.h>

namespace __spiketrap {

namespace {

struct Slice {
  uint32_t Tid, Depth;
  uint64_t Start, End;       // ticks
  const SpikeRecord *Record; // one record whose stack holds this level
  size_t Own;                // the level's own spike record, or kNone
};

bool byLevel(const Slice &A, const Slice &B) {
  if (A.Tid != B.Tid)
    return A.Tid < B.Tid;
  if (A.Depth != B.Depth)
    return A.Depth < B.Depth;
  return A.Start < B.Start;
}

// One slice per (thread, depth, start), ending at its latest known end.
size_t collectSlices(const ReportModel &M, Array<Slice> &S) {
  size_t N = 0;
  for (size_t I = 0; I < M.size(); ++I) {
    const SpikeRecord &R = M.record(I);
    for (uint32_t L = 0; L < R.Levels; ++L) {
      size_t Own = L + 1 == R.Levels ? I : M.ownSpike(I, L);
      uint64_t End = Own == kNone ? R.End : M.record(Own).End;
      S[N++] = {R.Tid, L, R.Level[L].Start, End, &R, Own};
    }
  }
  std::sort(S.begin(), S.begin() + N, byLevel);
  size_t Out = 0;
  for (size_t I = 0; I < N; ++I) {
    if (Out && !byLevel(S[Out - 1], S[I])) {
      Slice &Prev = S[Out - 1];
      Prev.End = std::max(Prev.End, S[I].End);
      if (Prev.Own == kNone)
        Prev.Own = S[I].Own;
      continue;
    }
    S[Out++] = S[I];
  }
  return Out;
}

void writeSlice(Buffer &B, const ReportModel &M, const Slice &S, int Pid) {
  const SpikeLevel &Lv = S.Record->Level[S.Depth];
  const spiketrap_desc *D = Lv.Desc;
  B.format(",\n{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":", Pid, S.Tid);
  formatMicros(B, sinceStartNs(S.Start));
  B.format(",\"dur\":");
  formatMicros(B, ticksToNs(S.End - S.Start));
  B.format(",\"name\":");
  jsonString(B, D->name);
  B.format(",\"cat\":\"{}\",\"args\":{{\"file\":",
           S.Own == kNone ? "caller" : "spike");
  jsonString(B, D->file ? D->file : "");
  B.format(",\"line\":{}", D->line);
  if (S.Record->Frame)
    B.format(",\"frame\":{}", S.Record->Frame);
  for (uint32_t Kind : {MessageDesc, MessageOverThreshold})
    if (const char *Msg = S.Record->message(S.Depth, Kind)) {
      B.format(Kind == MessageDesc ? ",\"message\":" : ",\"ot_message\":");
      jsonString(B, Msg);
    }
  if (S.Own != kNone) {
    const SpikeRecord &O = M.record(S.Own);
    B.format(",\"spike\":{},\"duration_ns\":{},\"threshold_ns\":{}", S.Own,
             ticksToNs(O.durationTicks()),
             thresholdNs(O.Level[S.Depth].Threshold));
  } else {
    B.format(",\"note\":\"did not spike; shown until its last spiking "
             "callee ended\"");
  }
  B.format("}}}}");
}

} // namespace

void writeTrace(Buffer &B, const ReportModel &M) {
  size_t Levels = 0;
  for (size_t I = 0; I < M.size(); ++I)
    Levels += M.record(I).Levels;
  Array<Slice> S(Levels);
  if (!S) {
    logLine("out of memory for the trace of {} spikes", M.size());
    return;
  }
  size_t N = collectSlices(M, S);
  int Pid = getpid();
  SpikeTotals T = spikeTotals();
  B.format("{{\"displayTimeUnit\":\"ms\",\"otherData\":{{\"format\":"
           "\"spiketrap-trace\",\"version\":1,\"pid\":{},\"start_time\":\"",
           Pid);
  formatStartTime(B, /*Iso=*/true);
  B.format("\",\"spikes\":{},\"dropped\":{}}},\n\"traceEvents\":["
           "{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"process_name\","
           "\"args\":{{\"name\":\"spiketrap {}\"}}}}",
           T.Recorded, T.Dropped, Pid, Pid, Pid);
  for (size_t I = 0; I < N; ++I)
    if (I == 0 || S[I].Tid != S[I - 1].Tid) {
      B.format(",\n{{\"ph\":\"M\",\"pid\":{},\"tid\":{},\"name\":\"thread_"
               "name\",\"args\":{{\"name\":",
               Pid, S[I].Tid);
      jsonString(B, S[I].Record->ThreadName);
      B.format("}}}}");
    }
  for (size_t I = 0; I < N; ++I)
    writeSlice(B, M, S[I], Pid);
  // Lost records are part of the picture: a global marker at the end.
  if (T.Dropped) {
    B.format(",\n{{\"ph\":\"i\",\"s\":\"g\",\"pid\":{},\"tid\":{},\"ts\":", Pid,
             Pid);
    formatMicros(B, sinceStartNs(now()));
    B.format(",\"name\":\"spiketrap: {} spike records dropped (raise "
             "spike_memory)\"}}",
             T.Dropped);
  }
  B.format("]}}\n");
}

} // namespace __spiketrap
