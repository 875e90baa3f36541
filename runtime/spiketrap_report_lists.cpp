//===- spiketrap_report_lists.cpp - What goes back to the compiler --------===//
//
// Lines in the list format the pass reads (LLVM SpecialCaseList,
// docs/report-format.md): the text report's suggest: lines (PET's suggested
// markup: a function that spikes on most of its calls is usually slow by
// design, a frame tick or a loader, and wants its own threshold, not a fix)
// and skip_list=, the functions adaptive mode found skippable. The
// suggested list file is spiketrap-report's (from the JSON's
// suggested_threshold_ns); the skip list stays here because the JSON does
// not hold the functions that never spiked.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_adaptive.h"
#include "spiketrap_report_formats.h"

#include <algorithm>
#include <string.h>

namespace __spiketrap {

namespace {

// The next of 1, 2, 5 x 10^k at or above Ns, 1000 s at most: thresholds
// people would write. utils/spiketrap-report's nice_above() recomputes the
// same after it merges or filters reports.
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
    // Most of its calls, not a rare one: that is its normal cost. Its own
    // cost: spikes it took only because a callee did are the callee's.
    // Code never instrumented (a signal handler the runtime timed) takes
    // no list entry.
    if (madeForSymbol(S.Desc) ||
        S.CulpritSpikes * 2 <=
            __atomic_load_n(&__spiketrap_desc_state(S.Desc)->calls,
                            __ATOMIC_RELAXED))
      continue;
    // 25% above its worst, so the next run reports only what is unusual.
    Out[N++] = {F, niceAbove(S.WorstNs + S.WorstNs / 4)};
  }
  return N;
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
  B.format(
      "spiked on {} of {} calls, worst ", F.Spikes,
      std::max<uint64_t>(__atomic_load_n(&__spiketrap_desc_state(F.Desc)->calls,
                                         __ATOMIC_RELAXED),
                         F.Spikes));
  formatDuration(B, F.WorstNs);
  if (const char *File = __spiketrap_desc_file(F.Desc); File && File[0]) {
    B.format(", ");
    formatListComment(B, File);
    B.format(":{}", __spiketrap_desc_line(F.Desc));
  }
}

namespace {
// A function that can block, spiked or was a candidate for a spike: not for
// a list that would hide it for good.
bool keptTimed(const spiketrap_desc *D, const ReportModel &M) {
  size_t Id = M.functionId(D);
  return __spiketrap_desc_state(D)->rearms ||
         __spiketrap_desc_timed_until(D) == SPIKETRAP_TIMED_ALWAYS ||
         (Id != kNone && M.function(Id).Spikes);
}
} // namespace

void writeSkipList(Buffer &B, const ReportModel &M) {
  uint32_t N = numSkippable();
  B.format("# spiketrap skip list: functions called at least {} times of "
           "which at most 1 in {}\n# took 1/{} of their threshold. Compile "
           "with -mllvm -spiketrap-list=<this file>\n# to leave them out; a "
           "spike below one is reported at its nearest timed caller.\n",
           kLookEvery, kNearShare, kCloseRatio);
  if (N > kMaxSkippable)
    B.format("# ({} more not listed: the table is full)\n", N - kMaxSkippable);
  B.format("[never]\n");
  for (uint32_t I = 0; I < N && I < kMaxSkippable; ++I) {
    const spiketrap_desc *D = skippableAt(I);
    if (!D || !__spiketrap_desc_name(D) || keptTimed(D, M))
      continue;
    B.format(
        "# {} calls, {} near the threshold",
        __atomic_load_n(&__spiketrap_desc_state(D)->calls, __ATOMIC_RELAXED),
        __atomic_load_n(&__spiketrap_desc_state(D)->near_calls,
                        __ATOMIC_RELAXED));
    if (const char *File = __spiketrap_desc_file(D); File && File[0]) {
      B.format(", ");
      formatListComment(B, File);
      B.format(":{}", __spiketrap_desc_line(D));
    }
    B.push_back('\n');
    formatListEntry(B, __spiketrap_desc_name(D));
  }
}

} // namespace __spiketrap
