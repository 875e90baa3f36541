//===- spiketrap_culprit.cpp - What a spike's samples say -----------------===//
//
// When a spike is recorded (spiketrap_spikes.cpp), on its thread: the
// frames the samples taken during the call agree on (the culprit chain:
// the deepest frame where most of them agree, and the time they stand
// for), the frames above the call between the thread's timed levels (one
// unwinding at the call's exit, with the sampler's Walk), and the callees
// the tick timed again while the call ran. The samples are the tick's
// (spiketrap_sampler.cpp). This file has unwind tables: framesAbove
// unwinds out through its own frame.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_sampler.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <string.h>

namespace __spiketrap {

namespace sampler_impl {
uint64_t LateTicks;
uintptr_t VdsoLo, VdsoHi;
} // namespace sampler_impl

using namespace sampler_impl;

//===-- The culprit, when a spike is recorded -----------------------------===//

namespace {
bool inVdso(uintptr_t Fn) { return Fn >= VdsoLo && Fn < VdsoHi; }

// Samples that must agree, at least: one. The ticks come at a share of the
// thread's CPU time (4 ms of it at HZ=250), not of the wall clock: a call a
// preemption stretched is not sampled more where its last microseconds run,
// and a one-off spike of a few milliseconds holds one sample or none. Most
// of the call's samples must still agree, and stand for most of its time.
constexpr uint32_t kMinAgree = 1;
inline uint64_t min(uint64_t A, uint64_t B) { return A < B ? A : B; }

// Whether two frames are the same activation as far as samples tell: a
// timed one by its start, another by its function (the same function at the
// same place in the chain, in consecutive samples).
bool sameFrame(const SampleFrame &A, const SampleFrame &B) {
  return A.Desc ? B.Desc == A.Desc && B.Start == A.Start
                : !B.Desc && B.Fn == A.Fn;
}
} // namespace

uint32_t sampledChain(ThreadState &T, uint32_t Level, uint64_t End,
                      SampledFrame *Out, SampledStats &Stats) {
  Stats = {};
  SampleBuffer *B = T.Samples;
  if (!B || !B->Taken)
    return 0;
  __atomic_store_n(&B->Reading, 1, __ATOMIC_RELAXED);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const Frame &K = T.Frames[Level];
  // The samples taken while the call was open, oldest first, and where its
  // activation is in each.
  const Sample *W[kSampleSlots];
  uint32_t Pos[kSampleSlots], N = 0;
  uint32_t Now = __atomic_load_n(&Epoch, __ATOMIC_RELAXED);
  for (const Sample &S : B->Slots) {
    if (!S.Frames || S.Time < K.Start || S.Time > End || S.Epoch != Now)
      continue;
    for (uint32_t P = 0; P < S.Frames; ++P)
      if (S.F[P].Desc == K.Desc && S.F[P].Start == K.Start) {
        // In time order (the slots are not: the first few stay).
        uint32_t I = N++;
        for (; I && W[I - 1]->Time > S.Time; --I)
          W[I] = W[I - 1], Pos[I] = Pos[I - 1];
        W[I] = &S;
        Pos[I] = P;
        break;
      }
  }
  Stats.Samples = N;
  if (!N) {
    __atomic_store_n(&B->Reading, 0, __ATOMIC_RELAXED);
    return 0;
  }
  // The time each sample stands for, [From, To): halfway to its neighbours
  // in its run (the thread ran, sampled every period, in between); a period
  // at most across runs (it waited, or was not sampled, in between). The
  // call's first sample stands for its start when it came in time (the
  // time before half its threshold is not sampled); the last for its end
  // when the call ended before the next.
  uint64_t From[kSampleSlots], To[kSampleSlots];
  uint64_t Thr = resolvedThreshold(K.Threshold);
  for (uint32_t I = 0; I < N; ++I) {
    const Sample &S = *W[I];
    uint64_t P = nsToTicks(uint64_t(S.PeriodUs) * 1000);
    if (I && W[I - 1]->Run == S.Run)
      From[I] = S.Time - (S.Time - W[I - 1]->Time) / 2;
    else if (I)
      From[I] = S.Time - min(P, (S.Time - W[I - 1]->Time) / 2);
    else if (S.Time - K.Start <= Thr / 2 + LateTicks)
      From[I] = K.Start;
    else
      From[I] = S.Time - min(P, S.Time - K.Start);
    if (I + 1 < N && W[I + 1]->Run == S.Run)
      To[I] = S.Time + (W[I + 1]->Time - S.Time) / 2;
    else if (I + 1 < N)
      To[I] = S.Time + min(P, (W[I + 1]->Time - S.Time) / 2);
    else
      To[I] = End - S.Time <= 2 * P ? End : S.Time + P;
  }
  // Above the call: the frames between the thread's timed levels, the same
  // in every sample while the call is open (the latest has them).
  uint32_t Count = 0, At = 0;
  const Sample &Last = *W[N - 1];
  for (uint32_t P = 0; P <= Pos[N - 1]; ++P) {
    const SampleFrame &F = Last.F[P];
    if (F.Desc)
      for (uint32_t J = Level + 1; J-- > 0;)
        if (T.Frames[J].Desc == F.Desc && T.Frames[J].Start == F.Start) {
          At = J;
          break;
        }
    Out[Count++] = {F.Fn, F.Desc, At,
                    F.Desc ? uint32_t(SampledActivation | SampledTimed) : 0};
  }
  // Below it: the samples of its own time (none in a timed call inside it:
  // that call's time is its own, and its spike names it), as deep as one
  // activation holds most of them. Those that agree so far are X[Lo, Hi)
  // (indices into W), each Depth frames below the call's activation.
  uint32_t X[kSampleSlots], NX = 0;
  for (uint32_t I = 0; I < N; ++I) {
    bool Own = true;
    for (uint32_t P = Pos[I] + 1; P < W[I]->Frames && Own; ++P)
      Own = !W[I]->F[P].Desc;
    if (Own)
      X[NX++] = I;
  }
  Stats.Samples = NX;
  // Its own time, which most must stand for: samples that all came late in
  // a long call (it waited between them) say little about it.
  uint64_t Own = End - K.Start;
  Own = K.ChildTicks < Own ? Own - K.ChildTicks : 0;
  auto frameAt = [&](uint32_t I, uint32_t Depth) -> const SampleFrame * {
    uint32_t P = Pos[X[I]] + Depth;
    return P < W[X[I]]->Frames ? &W[X[I]]->F[P] : nullptr;
  };
  uint32_t Lo = 0, Hi = NX, Depth = 1;
  while (Count < kMaxSampled) {
    uint32_t BestLo = 0, BestLen = 0;
    for (uint32_t I = Lo; I < Hi;) {
      const SampleFrame *F = frameAt(I, Depth);
      if (!F) {
        ++I;
        continue;
      }
      uint32_t E = I + 1;
      for (const SampleFrame *G;
           E < Hi && (G = frameAt(E, Depth)) && sameFrame(*F, *G);)
        ++E;
      if (E - I > BestLen)
        BestLo = I, BestLen = E - I;
      I = E;
    }
    uint64_t Ran = 0;
    uint32_t Blocked = 0;
    for (uint32_t I = BestLo; I < BestLo + BestLen; ++I) {
      Ran += To[X[I]] - From[X[I]];
      Blocked += W[X[I]]->Blocked != 0;
    }
    if (BestLen < kMinAgree || BestLen * 2 <= NX || Ran * 2 <= Own)
      break;
    const SampleFrame &F = *frameAt(BestLo, Depth);
    // A loop reading the clock is no one long call of clock_gettime: each
    // takes tens of nanoseconds (the vDSO), however many samples land in one.
    // Stop above the vDSO and above a function that is mostly a call into it.
    uint32_t InVdso = 0;
    for (uint32_t I = BestLo; I < BestLo + BestLen; ++I) {
      const SampleFrame *G = frameAt(I, Depth + 1);
      InVdso += G && inVdso(G->Fn);
    }
    if (!F.Desc && (inVdso(F.Fn) || InVdso * 2 > BestLen))
      break;
    Out[Count++] = {F.Fn, F.Desc, Level,
                    SampledCulprit | (F.Desc ? uint32_t(SampledTimed) : 0)};
    Lo = BestLo;
    Hi = BestLo + BestLen;
    ++Depth;
    Stats.Agree = BestLen;
    Stats.Blocked = Blocked;
    Stats.First = W[X[Lo]]->Time;
    Stats.Last = W[X[Hi - 1]]->Time;
    Stats.From = From[X[Lo]];
    Stats.Ran = Ran;
  }
  __atomic_store_n(&B->Reading, 0, __ATOMIC_RELAXED);
  return Count;
}

//===-- The frames between timed levels, at a spike's exit ----------------===//

// The spiking call's exit runs while its callers are still on the stack:
// one unwinding from here finds every frame between the thread's timed
// levels, whether a sample saw them or not (a switched-off function seen
// by no sample, a library's). The same walk as a sample's (a Walk from its
// own frame: the runtime's frames lie inside the spiking call's
// activation), so the frames read as a sample's do. With unwind tables on
// the way (the hooks, the recorder, the trampolines): ~0.3 us a frame.
namespace {
// This thread's last walk: its spiking level, the floor it started from,
// that call's start and the floor level's activation. A caller open then
// whose spike comes after (the same activation: it started before and is
// open still) has its frames in that deeper spike's record, which the
// report shows it as a level of: no second walk (a leaf's spike and its
// callers' cost one). The floor's activation tells a fiber's stack of
// calls from another's (spiketrap_fibers.cpp swaps them).
struct LastWalk {
  uint32_t Level, Floor;
  uint64_t Start, FloorStart;
  const spiketrap_desc *FloorDesc;
};
__thread LastWalk Walked;
} // namespace

uint32_t framesAbove(ThreadState &T, uint32_t Level, SampledFrame *Out,
                     uint32_t N) {
  uint32_t Floor = sampleFloor(T);
  if (!__atomic_load_n(&UnwindReady, __ATOMIC_ACQUIRE) || Level < Floor ||
      Level >= T.Depth || Level >= kMaxDepth)
    return N;
  // A spike in a program's handler on its small alternate stack: an
  // unwinding there needs ~5 KiB more than the recorder's own (the samples
  // keep the same room).
  if (!roomOnAltStack(T, uintptr_t(__builtin_frame_address(0)), 0))
    return N;
  const LastWalk &L = Walked;
  if (L.Level > Level && L.Floor <= Floor && T.Frames[Level].Start <= L.Start &&
      T.Frames[L.Floor].Desc == L.FloorDesc &&
      T.Frames[L.Floor].Start == L.FloorStart)
    return N;
  // The culprit chain (below the call) stays; what is above it is replaced.
  uint32_t Culprit = 0;
  while (Culprit < N && (Out[N - 1 - Culprit].Flags & SampledCulprit))
    ++Culprit;
  Sample S;
  Walk W = Walk::from(T, S, nullptr, Level, Floor);
  // A sample taken meanwhile would take the fault guard (and a handler that
  // spikes would put it back as it found it).
  SampleBuffer *B = T.Samples;
  uint32_t Reading = B ? B->Reading : 0;
  if (B)
    __atomic_store_n(&B->Reading, 1, __ATOMIC_RELAXED);
  // A fault in the unwinder (wrong unwind tables) breaks the walk.
  std::atomic_signal_fence(std::memory_order_seq_cst);
  walkStack(W);
  if (B)
    __atomic_store_n(&B->Reading, Reading, __ATOMIC_RELAXED);
  // Out past the first timed frame, or nothing (code without unwind
  // tables on the way, another stack: the samples' frames stay).
  if (W.Broken || W.J >= W.Floor)
    return N;
  // Outermost first, down to the call's activation.
  uint32_t Kept = W.N < kSampleFrames ? W.N : kSampleFrames, Above = 0;
  const Frame &K = T.Frames[Level];
  for (uint32_t I = 0; I < Kept; ++I) {
    const SampleFrame &F = S.F[(W.N - 1 - I) % kSampleFrames];
    if (F.Desc == K.Desc && F.Start == K.Start)
      Above = I + 1;
  }
  if (!Above)
    return N; // more than kSampleFrames frames above it
  Walked = {Level, Floor, K.Start, T.Frames[Floor].Start, T.Frames[Floor].Desc};
  // Nothing between the timed levels and no culprit chain: no frames (the
  // record stays as small as before).
  bool Between = false;
  for (uint32_t I = 0; I < Above && !Between; ++I)
    Between = !S.F[(W.N - 1 - I) % kSampleFrames].Desc;
  if (!Between && !Culprit)
    return 0;
  if (Above + Culprit > kMaxSampled)
    Culprit = kMaxSampled - Above;
  memmove(Out + Above, Out + N - Culprit, Culprit * sizeof(SampledFrame));
  uint32_t At = Floor;
  for (uint32_t I = 0; I < Above; ++I) {
    const SampleFrame &F = S.F[(W.N - 1 - I) % kSampleFrames];
    if (F.Desc)
      for (uint32_t J = Level + 1; J-- > 0;)
        if (T.Frames[J].Desc == F.Desc && T.Frames[J].Start == F.Start) {
          At = J;
          break;
        }
    Out[I] = {F.Fn, F.Desc, At,
              F.Desc ? uint32_t(SampledActivation | SampledTimed) : 0};
  }
  // A patched site's trampoline calls the exit hook once the function's
  // code returned: the activation reads as a sample's (the function's
  // code, merged with its trampoline), or its callee below would read as
  // the function's own body.
  if (uintptr_t Entry = uintptr_t(__spiketrap_desc_entry(K.Desc)))
    Out[Above - 1].Fn = Entry;
  return Above + Culprit;
}

//===-- The callees timed again -------------------------------------------===//

uint32_t samplerRearmed(const ThreadState &T, uint32_t Level,
                        const spiketrap_desc **Out) {
  const SampleBuffer *B = T.Samples;
  const Frame &F = T.Frames[Level];
  if (!B || __atomic_load_n(&B->RearmStart, __ATOMIC_ACQUIRE) != F.Start ||
      B->RearmDesc != F.Desc)
    return 0;
  uint32_t N = B->NumRearmed < kMaxCandidates ? B->NumRearmed : 0;
  for (uint32_t I = 0; I < N; ++I)
    Out[I] = B->Rearmed[I];
  return N;
}

} // namespace __spiketrap
