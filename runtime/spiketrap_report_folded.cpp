//===- spiketrap_report_folded.cpp - Folded stacks for flame graphs ------===//
//
// "main;tick;load_level 3012": one line per distinct spike stack, weighted
// in microseconds, for flamegraph.pl, inferno and speedscope. Each spike
// counts its time outside callees that spiked themselves (those have lines
// of their own), so a frame's width is its spike time. The first line is a
// comment with the totals, dropped records included; the tools skip it.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_report_formats.h"

#include <algorithm>

namespace __spiketrap {

namespace {

bool stackLess(const SpikeRecord &A, const SpikeRecord &B) {
  for (uint32_t L = 0; L < A.Levels && L < B.Levels; ++L)
    if (A.Level[L].Desc != B.Level[L].Desc)
      return A.Level[L].Desc < B.Level[L].Desc;
  return A.Levels < B.Levels;
}

void writeStack(Buffer &B, const SpikeRecord &R) {
  for (uint32_t L = 0; L < R.Levels; ++L) {
    if (L)
      B.push_back(';');
    // ';' separates frames and a space ends the stack: neither in a name.
    for (const char *P = R.Level[L].Desc->name; *P; ++P)
      B.push_back(*P == ';' ? ':' : *P == '\n' ? ' ' : *P);
  }
}

} // namespace

void writeFolded(Buffer &B, const ReportModel &M) {
  SpikeTotals T = spikeTotals();
  B.format("# spiketrap folded spike stacks (microseconds): {} spikes, {} "
           "dropped records\n",
           T.Recorded, T.Dropped);
  Array<size_t> Order(M.size());
  if (!Order)
    return;
  for (size_t I = 0; I < M.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    return stackLess(M.record(A), M.record(B));
  });
  for (size_t I = 0; I < Order.size();) {
    uint64_t Ns = 0;
    size_t J = I;
    for (;
         J < Order.size() && !stackLess(M.record(Order[I]), M.record(Order[J]));
         ++J)
      // As the JSON has them, so utils/spiketrap-report folds the same.
      Ns += ticksToNs(M.record(Order[J]).durationTicks()) -
            ticksToNs(M.childSpikeTicks(Order[J]));
    // Whole microseconds: what the tools parse.
    if (uint64_t Us = (Ns + 500) / 1000) {
      writeStack(B, M.record(Order[I]));
      B.format(" {}\n", Us);
    }
    I = J;
  }
}

} // namespace __spiketrap
