//===- spiketrap_report_suggest.cpp - PET's suggested markup -------------===//
//
// A function that spikes on most of its calls is usually slow by design (a
// frame tick, a loader): it wants its own threshold, not a fix. The report
// suggests one, and suggest_list= writes the suggestions as a list file in
// the format the pass reads (LLVM SpecialCaseList, docs/report-format.md).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_report_formats.h"

#include <algorithm>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

// The next of 1, 2, 5 x 10^k at or above Ns: thresholds people would write.
uint64_t niceAbove(uint64_t Ns) {
  for (uint64_t Decade = 1000;; Decade *= 10)
    for (uint64_t Step : {1, 2, 5})
      if (Step * Decade >= Ns || Decade >= 1000000000000ull)
        return Step * Decade;
}

} // namespace

size_t suggest(const ReportModel &M, Array<Suggestion> &Out) {
  size_t N = 0;
  for (size_t F = 0; F < M.numSpiking(); ++F) {
    const FunctionStats &S = M.function(F);
    // Most of its calls, not a rare one: that is its normal cost.
    if (S.Spikes * 2 <= S.Desc->calls)
      continue;
    // 25% above its worst, so the next run reports only what is unusual.
    Out[N++] = {F, niceAbove(S.WorstNs + S.WorstNs / 4)};
  }
  return N;
}

void formatListDuration(Buffer &B, uint64_t Ns) {
  if (Ns % 1000000000 == 0)
    B.format("{}s", Ns / 1000000000);
  else if (Ns % 1000000 == 0)
    B.format("{}ms", Ns / 1000000);
  else if (Ns % 1000 == 0)
    B.format("{}us", Ns / 1000);
  else
    B.format("{}ns", Ns);
}

void formatListName(Buffer &B, const char *Name) {
  for (const char *P = Name; *P; ++P) {
    // SpecialCaseList trims its lines: a last space is written as a class.
    if (*P == ' ' && !P[1]) {
      B.format("[ ]");
      break;
    }
    // Glob characters match themselves only escaped.
    if (strchr("\\*?[]{}", *P))
      B.push_back('\\');
    // SpecialCaseList splits an entry at its first '=' (a category):
    // any one character is the closest a pattern can say.
    B.push_back(*P == '=' ? '?' : *P);
  }
}

bool listNameOk(const char *Name) {
  // An empty entry ("fun:") is a malformed line to SpecialCaseList.
  if (!*Name)
    return false;
  for (const unsigned char *P = reinterpret_cast<const unsigned char *>(Name);
       *P; ++P)
    if (*P < 0x20 || *P == 0x7f)
      return false;
  return true;
}

void formatListEntry(Buffer &B, const char *Name) {
  if (!listNameOk(Name)) {
    B.format("# left out: a function whose name {}\n",
             *Name ? "has a control character" : "is empty");
    return;
  }
  B.format("fun:");
  formatListName(B, Name);
  B.push_back('\n');
}

void formatListComment(Buffer &B, const char *S) {
  for (const unsigned char *P = reinterpret_cast<const unsigned char *>(S); *P;
       ++P)
    B.push_back(*P < 0x20 || *P == 0x7f ? '?' : char(*P));
}

void printSuggestionReason(Buffer &B, const FunctionStats &F) {
  B.format("spiked on {} of {} calls, worst ", F.Spikes,
           std::max(F.Desc->calls, F.Spikes));
  formatDuration(B, F.WorstNs);
  if (F.Desc->file && F.Desc->file[0]) {
    B.format(", ");
    formatListComment(B, F.Desc->file);
    B.format(":{}", F.Desc->line);
  }
}

void writeSuggestList(Buffer &B, const ReportModel &M) {
  Array<Suggestion> S(M.numSpiking());
  size_t N = suggest(M, S);
  B.format("# spiketrap suggestions (pid {}, started ", getpid());
  formatStartTime(B, /*Iso=*/true);
  B.format("): functions that spiked on most\n# of their calls, each with a "
           "threshold above its worst spike.\n");
  std::sort(
      S.begin(), S.begin() + N, [](const Suggestion &A, const Suggestion &B) {
        return A.ThresholdNs < B.ThresholdNs ||
               (A.ThresholdNs == B.ThresholdNs && A.Function < B.Function);
      });
  for (size_t I = 0; I < N; ++I) {
    if (I == 0 || S[I].ThresholdNs != S[I - 1].ThresholdNs) {
      B.format("[threshold=");
      formatListDuration(B, S[I].ThresholdNs);
      B.format("]\n");
    }
    const FunctionStats &F = M.function(S[I].Function);
    B.format("# ");
    printSuggestionReason(B, F);
    B.push_back('\n');
    formatListEntry(B, F.Desc->name);
  }
}

} // namespace __spiketrap
