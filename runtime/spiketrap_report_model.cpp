//===- spiketrap_report_model.cpp - What every report format shows --------===//
#include "spiketrap_report_model.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_capture.h"
#include "spiketrap_clock.h"
#include "spiketrap_format.h"
#include "spiketrap_registry.h"

#include <algorithm>
#include <string.h>

namespace __spiketrap {

namespace {
uint64_t sinceStartNs(uint64_t Ticks) {
  return Ticks > theClock.StartTicks ? ticksToNs(Ticks - theClock.StartTicks)
                                     : 0;
}
} // namespace

uint64_t durationNs(const SpikeRecord &R) {
  return ticksToNs(R.durationTicks());
}
uint64_t endNs(const SpikeRecord &R) { return sinceStartNs(R.End); }
uint64_t selfNs(const SpikeRecord &R) {
  uint64_t D = R.durationTicks(), C = R.Level[R.Levels - 1].ChildTicks;
  return ticksToNs(C < D ? D - C : 0);
}
bool preemptionMeasured(const SpikeRecord &R) {
  return R.HasKernel || R.HasRunDelay;
}
uint64_t preemptedNs(const SpikeRecord &R) {
  return R.HasKernel ? R.kernel()[R.Levels - 1].PreemptedNs : R.RunDelayNs;
}
uint64_t longestWaitNs(const SpikeRecord &R) {
  return ticksToNs(R.LongestWaitTicks);
}
uint64_t runningNs(const SpikeRecord &R, uint32_t L) {
  uint64_t D = R.durationTicks(), W = R.Level[L].WaitTicks;
  uint64_t Ns = ticksToNs(W < D ? D - W : 0);
  // Its preemption is the spiking call's. (A wait's wake-up that waited
  // for a CPU is in both: running is then less by that.)
  uint64_t P = L + 1 == R.Levels ? preemptedNs(R) : 0;
  return Ns > P ? Ns - P : 0;
}
uint64_t startNs(const SpikeLevel &L) { return sinceStartNs(L.Start); }
uint64_t thresholdNs(const SpikeLevel &L) {
  return L.Threshold == kNever ? kNever : ticksToNs(L.Threshold);
}
uint64_t childNs(const SpikeLevel &L) { return ticksToNs(L.ChildTicks); }
uint64_t waitNs(const SpikeLevel &L) { return ticksToNs(L.WaitTicks); }
uint64_t idleNs(const SpikeLevel &L) { return ticksToNs(L.IdleTicks); }
uint64_t activeNs(const SpikeRecord &R) { return ticksToNs(R.activeTicks()); }
uint64_t worstNs(const IdleFunction &F) { return ticksToNs(F.WorstTicks); }
uint64_t startNs(const RecentCall &C) { return sinceStartNs(C.Start); }
uint64_t durationNs(const RecentCall &C) { return ticksToNs(C.End - C.Start); }
uint64_t startOffsetNs(const SpikeRecord &R, const RecentCall &C,
                       bool &Before) {
  uint64_t Spike = R.Level[R.Levels - 1].Start;
  Before = C.Start < Spike;
  return ticksToNs(Before ? Spike - C.Start : C.Start - Spike);
}
uint64_t runNs() { return sinceStartNs(now()); }

uint64_t ReportModel::childSpikeNs(size_t I) const {
  return ticksToNs(ChildTicks[I]);
}
uint64_t ReportModel::ownTicks(size_t I) const {
  uint64_t A = Records[I]->activeTicks();
  return A > ChildActive[I] ? A - ChildActive[I] : 0;
}
uint64_t ReportModel::ownPreemptedNs(size_t I) const {
  uint64_t P = preemptedNs(*Records[I]);
  return P > ChildPreempted[I] ? P - ChildPreempted[I] : 0;
}
uint64_t ReportModel::selfRunningNs(size_t I) const {
  uint64_t Self = selfNs(*Records[I]), P = ownPreemptedNs(I);
  return Self > P ? Self - P : 0;
}
uint64_t ReportModel::builtAtNs() const { return sinceStartNs(Now); }
uint64_t ReportModel::openNs(const SpikeLevel &V) const {
  return Now > V.Start ? ticksToNs(Now - V.Start) : 0;
}

uint64_t sampledEstimateNs(const SpikeRecord &R) {
  return R.Sampled.Agree ? ticksToNs(R.Sampled.Ran) : 0;
}
uint64_t sampledStartNs(const SpikeRecord &R) {
  return sinceStartNs(R.Sampled.From);
}
uint64_t sampledSeenNs(const SpikeRecord &R) {
  return ticksToNs(R.Sampled.Last - R.Sampled.First);
}

size_t sortedIdle(Array<const IdleFunction *> &Out) {
  size_t N = 0;
  const IdleFunction *T = idleFunctions();
  for (uint32_t I = 0; I < kIdleFunctions && N < Out.size(); ++I)
    if (__atomic_load_n(&T[I].Desc, __ATOMIC_ACQUIRE) && T[I].Calls)
      Out[N++] = &T[I];
  sortBy(Out.begin(), Out.begin() + N,
         [](const IdleFunction *A, const IdleFunction *B) {
           if (A->Calls != B->Calls)
             return A->Calls > B->Calls;
           return A->WorstTicks != B->WorstTicks ? A->WorstTicks > B->WorstTicks
                                                 : A < B;
         });
  return N;
}

bool ReportModel::build() {
  size_t N = 0, H = 0;
  forEachSpike([&](const SpikeRecord &R) { ++(R.Hang ? H : N); });
  if (!Records.reset(N) || !Keys.reset(N) || !Covered.reset(N) ||
      !ChildTicks.reset(N) || !ChildActive.reset(N) || !ChildStall.reset(N) ||
      !ChildPreempted.reset(N) || !Preempted.reset(N) || !WholeRun.reset(N) ||
      !Blames.reset(N) || !Rows.reset(N) || !Groups.reset(N) || !Hangs.reset(H) ||
      !HangReturns.reset(H)) {
    logLine("out of memory for the report of {} spikes", N);
    return false;
  }
  forEachSpike([&](const SpikeRecord &R) {
    if (R.Hang) { // the call seen stuck; its return, if any, is a spike
      if (NumHangs < H)
        Hangs[NumHangs++] = &R;
      return;
    }
    if (Count == N)
      return; // records may arrive while we read
    Keys[Count] = {R.Tid, R.Levels, R.Level[R.Levels - 1].Start, Count};
    Records[Count++] = &R;
  });
  if (!buildSampled())
    return false;
  // The run so far: from start-up to now (the report's time). Only a run a
  // thousand times the call's threshold has a driver: in a shorter one,
  // the call that lasts it all is the event.
  Now = now();
  uint64_t Run = Now > theClock.StartTicks ? Now - theClock.StartTicks : 0;
  for (size_t I = 0; I < Count; ++I) {
    const SpikeRecord &R = *Records[I];
    uint64_t Thr = R.Level[R.Levels - 1].Threshold;
    WholeRun[I] = Thr != kNever && Run / 1000 >= Thr &&
                  R.durationTicks() >= Run - Run / 10;
  }
  // Index last: equal keys keep the records' order.
  sortBy(Keys.begin(), Keys.begin() + Count, [](const Key &A, const Key &B) {
    return A < B || (!(B < A) && A.Index < B.Index);
  });
  // A spike that is a level of a deeper one is shown there, not on its own;
  // its callees' spikes account for part of its time. Code a signal handler
  // interrupted (levels below SignalLevel) is not the handler's caller: its
  // spikes stand on their own.
  for (size_t I = 0; I < Count; ++I) {
    const SpikeRecord &R = *Records[I];
    uint32_t Floor = R.Signo ? R.SignalLevel : 0;
    if (R.Levels < 2 || R.Levels - 2 < Floor)
      continue;
    if (size_t P = ownSpike(I, R.Levels - 2); P != kNone) {
      const SpikeLevel &Top = R.Level[R.Levels - 1];
      ChildTicks[P] += R.durationTicks();
      ChildActive[P] += R.activeTicks();
      ChildStall[P] += Top.WaitTicks - std::min(Top.IdleTicks, Top.WaitTicks);
      ChildPreempted[P] += preemptedNs(R);
    }
    for (uint32_t L = Floor; L + 1 < R.Levels; ++L)
      if (size_t A = ownSpike(I, L); A != kNone)
        Covered[A] = true;
  }
  // Late because its thread waited for a CPU (latePreempted): no code of it
  // or below it is to blame (its samples, taken only while it ran, would
  // name one). The measure is a lower bound: what it misses counts as
  // running.
  for (size_t I = 0; I < Count; ++I) {
    const SpikeLevel &Top = Records[I]->Level[Records[I]->Levels - 1];
    Preempted[I] = Top.Threshold != kNever &&
                   latePreempted(ownPreemptedNs(I), ticksToNs(ownTicks(I)),
                                 thresholdNs(Top));
  }
  // Group the leaves' identical stacks, worst first within a group.
  if (!Leaves.reset(Count)) {
    logLine("out of memory for the report of {} spikes", N);
    return false;
  }
  size_t NumLeaves = 0;
  for (size_t I = 0; I < Count; ++I)
    if (!Covered[I])
      Leaves[NumLeaves++] = I;
  sortBy(Leaves.begin(), Leaves.begin() + NumLeaves,
            [&](size_t A, size_t B) {
              const SpikeRecord &RA = *Records[A], &RB = *Records[B];
              if (RA.Levels != RB.Levels)
                return RA.Levels < RB.Levels;
              for (uint32_t L = 0; L < RA.Levels; ++L)
                if (RA.Level[L].Desc != RB.Level[L].Desc)
                  return RA.Level[L].Desc < RB.Level[L].Desc;
              if (int C = compareSampled(A, B))
                return C < 0;
              if (RA.Signo != RB.Signo)
                return RA.Signo < RB.Signo;
              if (RA.Signo && RA.SignalLevel != RB.SignalLevel)
                return RA.SignalLevel < RB.SignalLevel;
              if (RA.activeTicks() != RB.activeTicks())
                return RA.activeTicks() > RB.activeTicks();
              return A < B;
            });
  for (size_t I = 0; I < NumLeaves;) {
    size_t J = I + 1;
    while (J < NumLeaves && sameStack(Leaves[I], Leaves[J]))
      ++J;
    Groups[NumGroups++] = {Leaves[I], J - I, I};
    I = J;
  }
  // The worst spike first: that is the one to fix (idle time not counted:
  // a call that slept a second and worked 10 ms was 10 ms late). Stacks
  // late because their thread waited for a CPU come after all others: no
  // code to fix there.
  sortBy(Groups.begin(), Groups.begin() + NumGroups,
         [&](const StackGroup &A, const StackGroup &B) {
           if (Preempted[A.Worst] != Preempted[B.Worst])
             return Preempted[B.Worst];
           if (WholeRun[A.Worst] != WholeRun[B.Worst])
             return WholeRun[B.Worst];
           uint64_t DA = Records[A.Worst]->activeTicks(),
                    DB = Records[B.Worst]->activeTicks();
           return DA != DB ? DA > DB : A.First < B.First;
         });
  return buildBlame() && buildHangs() && buildOpen() && buildFunctions();
}

size_t ReportModel::parent(size_t I) const {
  const SpikeRecord &R = *Records[I];
  return R.Levels > 1 ? ownSpike(I, R.Levels - 2) : kNone;
}

// Culprit first (issue 25): a chain of callers that spiked only because a
// callee did is one incident, named by the level where the time went.
bool ReportModel::buildBlame() {
  Array<size_t> Best(Count); // each record's callee spike with most time
  if (!Best) {
    logLine("out of memory for the report of {} spikes", Count);
    return false;
  }
  for (size_t I = 0; I < Count; ++I)
    Best[I] = kNone;
  for (size_t I = 0; I < Count; ++I) {
    const SpikeRecord &R = *Records[I];
    uint32_t Floor = R.Signo ? R.SignalLevel : 0;
    if (R.Levels < 2 || R.Levels - 2 < Floor)
      continue;
    if (size_t P = ownSpike(I, R.Levels - 2); P != kNone)
      if (Best[P] == kNone ||
          Records[Best[P]]->activeTicks() < R.activeTicks())
        Best[P] = I;
  }
  auto IsCulprit = [&](size_t I) {
    uint64_t T = Records[I]->Level[Records[I]->Levels - 1].Threshold;
    return Best[I] == kNone || (T != kNever && ownTicks(I) > T);
  };
  for (size_t I = 0; I < Count; ++I) {
    size_t C = I;
    while (!IsCulprit(C))
      C = Best[C]; // deeper each time: ends
    const SpikeRecord &R = *Records[C];
    const SpikeLevel &Top = R.Level[R.Levels - 1];
    uint64_t Stall = Top.WaitTicks - std::min(Top.IdleTicks, Top.WaitTicks);
    Stall = Stall > ChildStall[C] ? Stall - ChildStall[C] : 0;
    if (Preempted[C])
      Blames[I] = {C, Top.Desc, BlameHow::Preempted};
    else if (const spiketrap_desc *S = sampledCulprit(C))
      Blames[I] = {C, S, BlameHow::Sampled};
    else // mostly held up in the C library: the wait explains it
      Blames[I] = {C, Top.Desc,
                   2 * Stall > ownTicks(C) ? BlameHow::Waits : BlameHow::Own};
  }
  // Rows: the culprits by (function, blamed), worst first.
  Array<size_t> Own(Count);
  if (!Own) {
    logLine("out of memory for the report of {} spikes", Count);
    return false;
  }
  size_t N = 0;
  for (size_t I = 0; I < Count; ++I)
    if (Blames[I].Spike == I)
      Own[N++] = I;
  auto Fn = [&](size_t I) {
    return Records[I]->Level[Records[I]->Levels - 1].Desc;
  };
  // A function's spikes that were preemption are a row of their own, and so
  // are those that lasted the whole run.
  auto Pre = [&](size_t I) { return Blames[I].How == BlameHow::Preempted; };
  auto Less = [&](size_t A, size_t B) {
    if (Fn(A) != Fn(B))
      return Fn(A) < Fn(B);
    if (Blames[A].Desc != Blames[B].Desc)
      return Blames[A].Desc < Blames[B].Desc;
    if (Pre(A) != Pre(B))
      return Pre(B);
    if (WholeRun[A] != WholeRun[B])
      return WholeRun[B];
    if (Records[A]->activeTicks() != Records[B]->activeTicks())
      return Records[A]->activeTicks() < Records[B]->activeTicks();
    return A < B;
  };
  sortBy(Own.begin(), Own.begin() + N, Less);
  for (size_t B = 0; B < N;) {
    size_t E = B + 1;
    while (E < N && Fn(Own[E]) == Fn(Own[B]) &&
           Blames[Own[E]].Desc == Blames[Own[B]].Desc &&
           Pre(Own[E]) == Pre(Own[B]) && WholeRun[Own[E]] == WholeRun[Own[B]])
      ++E;
    size_t K = E - B;
    auto Ns = [&](size_t J) {
      return ticksToNs(Records[Own[B + J]]->activeTicks());
    };
    Rows[NumRows++] = {Fn(Own[B]), Blames[Own[B]].Desc, K,       Ns(K - 1),
                       Ns((K - 1) / 2), Ns((95 * K + 99) / 100 - 1),
                       Own[E - 1]};
    B = E;
  }
  // Worst first; rows of preemption last, as the stacks, and before them
  // the calls that lasted the whole run.
  sortBy(Rows.begin(), Rows.begin() + NumRows,
         [&](const CulpritRow &A, const CulpritRow &B) {
           if (Pre(A.Worst) != Pre(B.Worst))
             return Pre(B.Worst);
           if (WholeRun[A.Worst] != WholeRun[B.Worst])
             return WholeRun[B.Worst];
           if (A.WorstNs != B.WorstNs)
             return A.WorstNs > B.WorstNs;
           return A.Worst < B.Worst;
         });
  return true;
}

size_t ReportModel::findReturn(const SpikeRecord &Hang) const {
  const SpikeLevel &Top = Hang.Level[Hang.Levels - 1];
  Key K{Hang.Tid, Hang.Levels, Top.Start, 0};
  const Key *End = Keys.begin() + Count;
  const Key *It = std::lower_bound(Keys.begin(), End, K);
  for (; It != End && It->Tid == K.Tid && It->Levels == K.Levels &&
         It->Start == K.Start;
       ++It)
    if (Records[It->Index]->Level[Hang.Levels - 1].Desc == Top.Desc)
      return It->Index;
  return kNone;
}

bool ReportModel::buildHangs() {
  for (size_t I = 0; I < NumHangs; ++I)
    HangReturns[I] = findReturn(*Hangs[I]);
  return true;
}

namespace {
struct OpenCount {
  size_t Threads, Levels;
};
SPIKETRAP_RACY_READER void countOpen(ThreadState &T, void *P) {
  auto *C = static_cast<OpenCount *>(P);
  uint32_t D = SPIKETRAP_RACY(T.Depth);
  ++C->Threads;
  C->Levels += D < kMaxDepth ? D : kMaxDepth;
}
} // namespace

bool ReportModel::buildOpen() {
  OpenCount C{0, 0};
  forEachThread(countOpen, &C);
  // Threads may open calls or start between the two walks: room for some.
  C.Threads += C.Threads / 4 + 4;
  C.Levels += C.Levels / 4 + 64;
  if (!Open.reset(C.Threads) || !OpenLevels.reset(C.Levels)) {
    logLine("out of memory for the report's open calls");
    return false;
  }
  Now = now();
  forEachThread(
      [](ThreadState &T, void *P) {
        auto &M = *static_cast<ReportModel *>(P);
        SpikeLevel Stack[kMaxDepth];
        uint32_t Past = 0;
        uint32_t N = snapshotStack(T, Stack, nullptr, &Past);
        if (!N || M.NumOpen == M.Open.size() ||
            M.NumOpenLevels + N > M.OpenLevels.size())
          return;
        OpenStack &O = M.Open[M.NumOpen++];
        O = {T.Tid, {}, N, M.NumOpenLevels, Past};
        threadDisplayName(T, O.Name);
        __builtin_memcpy(&M.OpenLevels[O.First], Stack, N * sizeof(SpikeLevel));
        M.NumOpenLevels += N;
      },
      this);
  return true;
}

size_t ReportModel::ownSpike(size_t I, uint32_t L) const {
  const SpikeRecord &R = *Records[I];
  Key K{R.Tid, L + 1, R.Level[L].Start, 0};
  const Key *End = Keys.begin() + Count;
  const Key *It = std::lower_bound(Keys.begin(), End, K);
  if (It == End || It->Tid != K.Tid || It->Levels != K.Levels ||
      It->Start != K.Start ||
      Records[It->Index]->Level[L].Desc != R.Level[L].Desc)
    return kNone;
  return It->Index;
}

bool ReportModel::sameStack(size_t IA, size_t IB) const {
  const SpikeRecord &A = *Records[IA], &B = *Records[IB];
  // In a signal handler or not, and from where, is part of the stack.
  if (A.Levels != B.Levels || A.Signo != B.Signo ||
      (A.Signo && A.SignalLevel != B.SignalLevel))
    return false;
  for (uint32_t L = 0; L < A.Levels; ++L)
    if (A.Level[L].Desc != B.Level[L].Desc)
      return false;
  return !compareSampled(IA, IB);
}

// Orders records by their sampled frames (the same stack with another
// culprit is another story).
int ReportModel::compareSampled(size_t A, size_t B) const {
  size_t NA = numSampled(A), NB = numSampled(B);
  for (size_t K = 0; K < NA && K < NB; ++K) {
    const SampledLevel &X = sampled(A, K), &Y = sampled(B, K);
    if (X.Desc != Y.Desc)
      return X.Desc < Y.Desc ? -1 : 1;
    if (X.After != Y.After)
      return X.After < Y.After ? -1 : 1;
    if (X.Culprit != Y.Culprit)
      return X.Culprit < Y.Culprit ? -1 : 1;
  }
  return NA == NB ? 0 : NA < NB ? -1 : 1;
}

bool ReportModel::buildSampled() {
  size_t Frames = 0, Names = numSkippable() < kMaxSkippable ? numSkippable()
                                                            : kMaxSkippable;
  for (size_t I = 0; I < Count; ++I) {
    Frames += Records[I]->NumSampled;
    Names += Records[I]->Levels;
  }
  if (!SampledFirst.reset(Count + 1) || !Sampled.reset(Frames)) {
    logLine("out of memory for the report of {} spikes", Count);
    return false;
  }
  if (!Frames)
    return true;
  // The instrumented functions a sampled one may be: those in the records,
  // and those adaptive mode switched off.
  Array<const spiketrap_desc *> Known(Names);
  if (!Known) {
    logLine("out of memory for the report of {} spikes", Count);
    return false;
  }
  size_t NK = 0;
  for (size_t I = 0; I < Count; ++I)
    for (uint32_t L = 0; L < Records[I]->Levels; ++L)
      Known[NK++] = Records[I]->Level[L].Desc;
  for (uint32_t I = 0; I < numSkippable() && NK < Names; ++I)
    Known[NK++] = skippableAt(I);
  if (!Syms.init(Known.begin(), NK, Frames)) {
    logLine("out of memory for the report of {} spikes", Count);
    return false;
  }
  size_t N = 0;
  for (size_t I = 0; I < Count; ++I) {
    const SpikeRecord &R = *Records[I];
    SampledFirst[I] = N;
    // A timed path's or the trampoline's callee is the function's own body
    // (unless the body left by a tail call: then it is that callee).
    const SampledFrame *Prev = nullptr;
    for (uint32_t K = 0; K < R.NumSampled; ++K) {
      const SampledFrame &F = R.sampled()[K];
      bool Timed = F.Flags & SampledTimed;
      // Fn 0: its object was unloaded, and it was named then.
      const spiketrap_desc *D = F.Desc ? F.Desc : Syms.describe(F.Fn);
      bool Body = false;
      if (Prev && (Prev->Flags & SampledTimed) && !Timed)
        Body = F.Fn && Prev->Fn ? Syms.isBodyOf(F.Fn, Prev->Fn, Prev->Desc)
                                : (Prev->Flags & SampledTimedPath) &&
                                      D == Prev->Desc;
      Prev = &F;
      if (Body || (F.Flags & SampledActivation))
        continue;
      Sampled[N++] = {D, F.Level, (F.Flags & SampledCulprit) != 0};
    }
  }
  SampledFirst[Count] = N;
  return true;
}

size_t ReportModel::functionId(const spiketrap_desc *D) const {
  const DescId *End = Ids.begin() + NumFunctions;
  const DescId *It = std::lower_bound(
      Ids.begin(), End, D,
      [](const DescId &E, const spiketrap_desc *V) { return E.Desc < V; });
  return It != End && It->Desc == D ? It->Id : kNone;
}

bool ReportModel::buildFunctions() {
  size_t Levels = NumOpenLevels;
  for (size_t I = 0; I < Count; ++I) {
    Levels += Records[I]->Levels + Records[I]->NumRecent + numSampled(I) +
              1; // and the function of its longest wait
    forEachCandidate(*Records[I], [&](const spiketrap_desc *) { ++Levels; });
  }
  for (size_t I = 0; I < NumHangs; ++I)
    Levels += Hangs[I]->Levels;
  // Records dropped: the functions that spiked, with a record kept or not.
  const LostFunction *Lost = spikeTotals().Dropped ? lostFunctions() : nullptr;
  if (Lost)
    Levels += kLostFunctions;
  Array<const spiketrap_desc *> All(Levels);
  // Spikes by function, then duration: each function's are then a sorted run.
  Array<size_t> ByFunction(Count);
  if (!All || !ByFunction || !Ids.reset(Levels) || !Functions.reset(Levels)) {
    logLine("out of memory for the report of {} spikes", Count);
    return false;
  }
  size_t N = 0;
  for (size_t I = 0; I < Count; ++I) {
    for (uint32_t L = 0; L < Records[I]->Levels; ++L)
      All[N++] = Records[I]->Level[L].Desc;
    for (uint32_t C = 0; C < Records[I]->NumRecent; ++C)
      All[N++] = Records[I]->recent()[C].Desc;
    // Bounded: hooks on other threads may re-arm more meanwhile.
    forEachCandidate(*Records[I], [&](const spiketrap_desc *C) {
      if (N < Levels)
        All[N++] = C;
    });
    if (Records[I]->LongestWaitDesc && N < Levels)
      All[N++] = Records[I]->LongestWaitDesc;
    for (size_t K = 0; K < numSampled(I) && N < Levels; ++K)
      All[N++] = sampled(I, K).Desc;
  }
  for (size_t I = 0; I < NumHangs; ++I)
    for (uint32_t L = 0; L < Hangs[I]->Levels; ++L)
      All[N++] = Hangs[I]->Level[L].Desc;
  for (size_t I = 0; I < NumOpenLevels; ++I)
    All[N++] = OpenLevels[I].Desc;
  for (uint32_t I = 0; Lost && I < kLostFunctions; ++I)
    if (const spiketrap_desc *D = __atomic_load_n(&Lost[I].Desc,
                                                  __ATOMIC_ACQUIRE))
      All[N++] = D;
  sortBy(All.begin(), All.begin() + N,
         [](const spiketrap_desc *A, const spiketrap_desc *B) { return A < B; });
  const spiketrap_desc **Last = std::unique(All.begin(), All.begin() + N);
  NumFunctions = size_t(Last - All.begin());

  for (size_t I = 0; I < Count; ++I)
    ByFunction[I] = I;
  auto Top = [&](size_t I) {
    const SpikeRecord &R = *Records[I];
    return R.Level[R.Levels - 1].Desc;
  };
  sortBy(ByFunction.begin(), ByFunction.end(), [&](size_t A, size_t B) {
    if (Top(A) != Top(B))
      return Top(A) < Top(B);
    if (Records[A]->activeTicks() != Records[B]->activeTicks())
      return Records[A]->activeTicks() < Records[B]->activeTicks();
    return A < B;
  });
  // Stats for every function in All's order; spikes of D are a run.
  size_t Run = 0;
  for (size_t F = 0; F < NumFunctions; ++F) {
    FunctionStats &S = Functions[F];
    S = {All[F], 0, 0, 0, 0, kNone, 0, 0, 0};
    size_t Begin = Run;
    while (Run < Count && Top(ByFunction[Run]) == All[F])
      ++Run;
    size_t Spikes = Run - Begin;
    if (!Spikes)
      continue;
    auto Ns = [&](size_t K) {
      return ticksToNs(Records[ByFunction[Begin + K]]->activeTicks());
    };
    S.Spikes = Spikes;
    for (size_t K = Begin; K < Run; ++K)
      S.CulpritSpikes += Blames[ByFunction[K]].Spike == ByFunction[K] &&
                         Blames[ByFunction[K]].How != BlameHow::Preempted;
    S.Worst = ByFunction[Run - 1];
    S.WorstNs = Ns(Spikes - 1);
    S.MedianNs = Ns((Spikes - 1) / 2);
    S.P95Ns = Ns((95 * Spikes + 99) / 100 - 1); // nearest rank
  }
  for (size_t F = 0; F < NumFunctions; ++F) {
    FunctionStats &S = Functions[F];
    S.AllSpikes = S.Spikes;
    S.AllWorstNs = S.WorstNs;
  }
  for (uint32_t I = 0; Lost && I < kLostFunctions; ++I) {
    const spiketrap_desc *D = __atomic_load_n(&Lost[I].Desc, __ATOMIC_ACQUIRE);
    const spiketrap_desc **It =
        std::lower_bound(All.begin(), All.begin() + NumFunctions, D);
    if (!D || It == All.begin() + NumFunctions || *It != D)
      continue;
    FunctionStats &S = Functions[It - All.begin()]; // still in All's order
    S.AllSpikes = S.Spikes + __atomic_load_n(&Lost[I].Spikes, __ATOMIC_RELAXED);
    S.AllWorstNs = std::max(
        S.WorstNs,
        ticksToNs(__atomic_load_n(&Lost[I].WorstTicks, __ATOMIC_RELAXED)));
  }
  // Spiking functions first, worst first; the rest by name (the same name
  // in two files: in the order of their descriptors).
  sortBy(Functions.begin(), Functions.begin() + NumFunctions,
            [](const FunctionStats &A, const FunctionStats &B) {
              if ((A.Spikes > 0) != (B.Spikes > 0))
                return A.Spikes > 0;
              if (A.WorstNs != B.WorstNs)
                return A.WorstNs > B.WorstNs;
              if (int C = strcmp(__spiketrap_desc_name(A.Desc),
                                 __spiketrap_desc_name(B.Desc)))
                return C < 0;
              return A.Desc < B.Desc;
            });
  for (size_t F = 0; F < NumFunctions; ++F) {
    NumSpiking += Functions[F].Spikes > 0;
    Ids[F] = {Functions[F].Desc, F};
  }
  sortBy(Ids.begin(), Ids.begin() + NumFunctions,
            [](const DescId &A, const DescId &B) { return A.Desc < B.Desc; });
  return true;
}

} // namespace __spiketrap
