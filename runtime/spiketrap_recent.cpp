//===- spiketrap_recent.cpp - The calls just before a spike ---------------===//
#include "spiketrap_recent.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"

namespace __spiketrap {

uint32_t recentCapacity;

namespace {
size_t ringBytes() {
  return offsetof(RecentRing, Calls) + recentCapacity * sizeof(RecentCall);
}
} // namespace

void recentInit() {
  int64_t N = flags.recent_calls;
  if (!flags.enabled || N <= 0)
    return;
  constexpr int64_t kMax = 4096;
  if (N > kMax) {
    logLine("recent_calls={}: at most {} calls per thread are kept; keeping "
            "{}", N, kMax, kMax);
    N = flags.recent_calls = kMax; // the JSON report's options say so
  }
  uint32_t Cap = 1;
  while (Cap < uint64_t(N))
    Cap <<= 1;
  recentCapacity = Cap;
  // Every timed call's exit goes through the slow path, which keeps it.
  exitFastPath = false;
}

void recentAttach(ThreadState &T) {
  if (!recentCapacity || T.Recent)
    return;
  void *P = mapPages(ringBytes());
  if (!P)
    return; // this thread's spikes carry no recent calls
  auto *R = static_cast<RecentRing *>(P);
  R->Mask = recentCapacity - 1;
  T.Recent = R;
}

void recentDetach(ThreadState &T) {
  if (RecentRing *R = T.Recent) {
    T.Recent = nullptr;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    unmapPages(R, ringBytes());
  }
}

uint32_t recentCount(const ThreadState &T) {
  const RecentRing *R = T.Recent;
  if (!R)
    return 0;
  return R->Next < recentCapacity ? uint32_t(R->Next) : recentCapacity;
}

uint32_t recentCopy(const ThreadState &T, RecentCall *Out, uint32_t Max) {
  const RecentRing *R = T.Recent;
  if (!R)
    return 0;
  uint64_t Next = R->Next;
  uint32_t N = recentCount(T);
  N = N < Max ? N : Max;
  for (uint32_t I = 0; I < N; ++I)
    Out[I] = R->Calls[(Next - N + I) & R->Mask];
  return N;
}

} // namespace __spiketrap
