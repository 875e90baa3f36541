//===- spiketrap_report.cpp - The text spike report -----------------------===//
//
// PET's log, grouped: each distinct stack that ended in a spike, worst
// instance first, with the duration of every level that also ran over its
// own threshold; then one summary line. Runs at exit or on demand, never in a
// hook, so it may allocate and format.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_init.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"

#include <algorithm>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

// A malloc-backed array: the runtime stays free of the C++ library.
template <typename T> class Array {
public:
  explicit Array(size_t N)
      : Data(static_cast<T *>(calloc(N ? N : 1, sizeof(T)))), Size(N) {}
  ~Array() { free(Data); }
  T &operator[](size_t I) { return Data[I]; }
  T *begin() { return Data; }
  T *end() { return Data + Size; }
  size_t size() const { return Size; }
  explicit operator bool() const { return Data; }

private:
  T *Data;
  size_t Size;
};

// A spike's identity as an ancestor of other spikes: thread, depth, entry.
struct Key {
  uint32_t Tid, Levels;
  uint64_t Start;
  const SpikeRecord *R;
  size_t Index; // into Report::Records before build() reorders them
  bool operator<(const Key &O) const {
    if (Tid != O.Tid)
      return Tid < O.Tid;
    if (Levels != O.Levels)
      return Levels < O.Levels;
    return Start < O.Start;
  }
};

class Report {
public:
  explicit Report(size_t N) : Records(N), Keys(N), Covered(N) {}
  bool ok() const { return Records && Keys && Covered; }
  void add(const SpikeRecord &R) {
    Keys[Count] = {R.Tid, R.Levels, R.Level[R.Levels - 1].Start, &R, Count};
    Records[Count++] = &R;
  }
  void build();
  void print(Buffer &B);

private:
  const Key *ownSpike(const SpikeRecord &R, uint32_t Level);
  static bool sameStack(const SpikeRecord *A, const SpikeRecord *B);
  void printGroup(Buffer &B, const SpikeRecord &Worst, size_t Times);

  Array<const SpikeRecord *> Records;
  Array<Key> Keys;
  Array<bool> Covered; // by index into Records: shown inside a deeper spike
  size_t Count = 0;    // records added, and keys
  size_t Shown = 0;    // records left in Records by build(): the leaves
};

// The record of level Level of R's stack, if that call spiked too.
const Key *Report::ownSpike(const SpikeRecord &R, uint32_t Level) {
  Key K{R.Tid, Level + 1, R.Level[Level].Start, nullptr, 0};
  Key *End = Keys.begin() + Count;
  Key *It = std::lower_bound(Keys.begin(), End, K);
  if (It == End || It->Tid != K.Tid || It->Levels != K.Levels ||
      It->Start != K.Start || It->R->Level[Level].Desc != R.Level[Level].Desc)
    return nullptr;
  return It;
}

bool Report::sameStack(const SpikeRecord *A, const SpikeRecord *B) {
  if (A->Levels != B->Levels)
    return false;
  for (uint32_t I = 0; I < A->Levels; ++I)
    if (A->Level[I].Desc != B->Level[I].Desc)
      return false;
  return true;
}

void Report::build() {
  std::sort(Keys.begin(), Keys.begin() + Count);
  // A spike shown as a level of a deeper spike is not shown on its own.
  for (size_t I = 0; I < Count; ++I) {
    const SpikeRecord &R = *Records[I];
    for (uint32_t L = 0; L + 1 < R.Levels; ++L)
      if (const Key *K = ownSpike(R, L))
        Covered[K->Index] = true;
  }
  // Group identical stacks next to each other, worst first in each group.
  for (size_t I = 0; I < Count; ++I)
    if (!Covered[I])
      Records[Shown++] = Records[I];
  std::sort(Records.begin(), Records.begin() + Shown,
            [](const SpikeRecord *A, const SpikeRecord *B) {
              if (A->Levels != B->Levels)
                return A->Levels < B->Levels;
              for (uint32_t L = 0; L < A->Levels; ++L)
                if (A->Level[L].Desc != B->Level[L].Desc)
                  return A->Level[L].Desc < B->Level[L].Desc;
              return A->durationTicks() > B->durationTicks();
            });
}

void printLocation(Buffer &B, const spiketrap_desc *D) {
  if (D->file && D->file[0] && D->line)
    B.format("{} ({}:{})", D->name, D->file, D->line);
  else if (D->file && D->file[0])
    B.format("{} ({})", D->name, D->file);
  else
    B.format("{}", D->name);
}

void Report::printGroup(Buffer &B, const SpikeRecord &R, size_t Times) {
  const SpikeLevel &Top = R.Level[R.Levels - 1];
  B.format("spike: ");
  formatDuration(B, ticksToNs(R.durationTicks()));
  B.format(" in ");
  printLocation(B, Top.Desc);
  B.format(", threshold ");
  formatDuration(B, ticksToNs(Top.Threshold));
  B.format("\n  thread {} (tid {}), ", R.ThreadName[0] ? R.ThreadName : "?",
           R.Tid);
  formatDuration(B, ticksToNs(R.End - theClock.StartTicks));
  B.format(" after start");
  if (Times > 1)
    B.format("; this stack spiked {} times, the worst is shown", Times);
  B.push_back('\n');
  // Durations line up in one column after the longest location.
  size_t Width = 0;
  for (uint32_t L = 0; L < R.Levels; ++L) {
    Buffer Loc;
    printLocation(Loc, R.Level[L].Desc);
    Width = std::max(Width, Loc.size());
  }
  Width = std::min<size_t>(Width, 100);
  for (uint32_t L = 0; L < R.Levels; ++L) {
    B.format("  #{:<2} ", L);
    size_t Col = B.size();
    printLocation(B, R.Level[L].Desc);
    const Key *K = L + 1 == R.Levels ? nullptr : ownSpike(R, L);
    const SpikeRecord *Own = L + 1 == R.Levels ? &R : K ? K->R : nullptr;
    if (Own) {
      for (size_t Pad = B.size() - Col; Pad < Width + 2; ++Pad)
        B.push_back(' ');
      formatDuration(B, ticksToNs(Own->durationTicks()));
      B.format(" > ");
      formatDuration(B, ticksToNs(Own->Level[L].Threshold));
    }
    B.push_back('\n');
  }
}

void Report::print(Buffer &B) {
  struct Group {
    size_t First, Times;
  };
  Array<Group> Groups(Shown);
  size_t NumGroups = 0;
  for (size_t I = 0; I < Shown;) {
    size_t J = I + 1;
    while (J < Shown && sameStack(Records[I], Records[J]))
      ++J;
    Groups[NumGroups++] = {I, J - I};
    I = J;
  }
  // Worst spike first: that is the one to fix.
  std::sort(Groups.begin(), Groups.begin() + NumGroups,
            [&](const Group &A, const Group &B) {
              return Records[A.First]->durationTicks() >
                     Records[B.First]->durationTicks();
            });
  size_t Limit = size_t(flags.report_stacks);
  for (size_t I = 0; I < NumGroups && I < Limit; ++I)
    printGroup(B, *Records[Groups[I].First], Groups[I].Times);
  if (NumGroups > Limit)
    B.format("({} more stacks not shown; raise report_stacks to see them)\n",
             NumGroups - Limit);
}

// Opens the report destination; a path that cannot be written falls back to
// stderr, saying so, so nothing is lost.
int openReport() {
  if (strcmp(flags.report, "stderr") == 0)
    return 2;
  Buffer Path;
  for (const char *P = flags.report; *P; ++P) {
    if (P[0] == '%' && P[1] == 'p') {
      Path.format("{}", getpid());
      ++P;
    } else {
      Path.push_back(*P);
    }
  }
  Path.push_back('\0');
  int Fd = open(Path.data(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    logLine("cannot write the report to '{}': {}; writing it to stderr",
            Path.data(), strerror(errno));
  return Fd < 0 ? 2 : Fd;
}

} // namespace

void writeReport() {
  RecursionGuard Guard;
  size_t N = 0;
  forEachSpike([&](const SpikeRecord &) { ++N; });
  Report Rep(N);
  if (!Rep.ok()) {
    logLine("out of memory for the report of {} spikes", N);
    return;
  }
  size_t Added = 0;
  forEachSpike([&](const SpikeRecord &R) {
    if (Added++ < N) // records may arrive while we read
      Rep.add(R);
  });
  Rep.build();

  Buffer B;
  B.format("==== spiketrap report (pid {}): calls over ", getpid());
  formatDuration(B, flags.threshold);
  B.format(" or their own threshold ====\n");
  Rep.print(B);
  SpikeTotals S = spikeTotals();
  ThreadTotals T = threadTotals();
  B.format("spiketrap: {} spikes, {} instrumented calls, {} threads, {} "
           "dropped records, {} calls past depth {}; clock {} ({} MHz)\n",
           S.Recorded, T.Calls, T.Threads, S.Dropped, T.Overflows, kMaxDepth,
           clockName(), theClock.TicksPerSecond / 1000000);
  int Fd = openReport();
  writeAll(Fd, B.data(), B.size());
  if (Fd != 2)
    close(Fd);
}

} // namespace __spiketrap

SPIKETRAP_EXPORT void spiketrap_report() { __spiketrap::writeReport(); }
