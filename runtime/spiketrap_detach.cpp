//===- spiketrap_detach.cpp - Records that outlive an unloaded object ----===//
//
// Before a shared object is unloaded (dlclose), what the records and the
// samples name in it gets copies the runtime owns: descriptors copied, the
// sampled code named while its symbols can still be read.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_adaptive.h"
#include "spiketrap_record.h"
#include "spiketrap_sampler.h"
#include "spiketrap_spikes.h"
#include "spiketrap_symbols.h"

#include <stdlib.h>
#include <string.h>

namespace __spiketrap {

namespace {
const spiketrap_desc_abs Unloaded = {
    {0, SPIKETRAP_DESC_ABS_STATE}, 0, "(unloaded code)", "", nullptr};

// Runtime-owned copies of descriptors of unloaded objects, kept for the
// whole run in a list: the records that point to them are in the arena.
struct OwnedDesc {
  spiketrap_desc_abs Desc;
  OwnedDesc *Next;
};
OwnedDesc *Owned;

const spiketrap_desc *copyDesc(const spiketrap_desc *D) {
  auto *C = static_cast<OwnedDesc *>(malloc(sizeof(OwnedDesc)));
  const char *FromName = __spiketrap_desc_name(D),
             *FromFile = __spiketrap_desc_file(D);
  char *Name = strdup(FromName ? FromName : "");
  char *File = strdup(FromFile ? FromFile : "");
  if (!C || !Name || !File) { // out of memory: say what we can
    free(C), free(Name), free(File);
    return &Unloaded.desc;
  }
  // Addresses, not offsets: the copy lives elsewhere (no extension, no
  // callees: they were relative to the unloaded object; a symbol's copy
  // stays one).
  C->Desc = {*D,      __spiketrap_desc_line(D),  Name, File,
             nullptr, *__spiketrap_desc_state(D)};
  if (!madeForSymbol(D))
    C->Desc.desc.flags &= ((1u << SPIKETRAP_DESC_CALLEES_SHIFT) - 1) &
                          ~(SPIKETRAP_DESC_RELATIVE | SPIKETRAP_DESC_EXTENDED |
                            SPIKETRAP_DESC_LOCATED);
  C->Desc.desc.state = SPIKETRAP_DESC_ABS_STATE;
  C->Desc.desc.name = C->Desc.desc.callees = C->Desc.desc.entry = 0;
  C->Next = Owned;
  Owned = C;
  return &C->Desc.desc;
}
} // namespace

namespace {
// Sampled frames whose code lies in [Lo, Hi), about to be unloaded: named
// now, while their object's symbols can still be read (Fn becomes 0).
// Detach(D) gives a descriptor that outlives the object.
template <typename Fn>
void nameSampledCode(uintptr_t Lo, uintptr_t Hi, const Fn &Detach) {
  size_t Fns = 0, Names = numSkippable() < kMaxSkippable ? numSkippable()
                                                         : kMaxSkippable;
  forEachSpike([&](const SpikeRecord &R) {
    Names += R.Levels;
    for (uint32_t K = 0; K < R.NumSampled; ++K)
      Fns += R.sampled()[K].Fn >= Lo && R.sampled()[K].Fn < Hi;
  });
  if (!Fns)
    return;
  Array<const spiketrap_desc *> Known(Names);
  size_t N = 0;
  forEachSpike([&](const SpikeRecord &R) {
    for (uint32_t L = 0; L < R.Levels && N < Names; ++L)
      Known[N++] = R.Level[L].Desc;
  });
  for (uint32_t I = 0; I < numSkippable() && N < Names; ++I)
    Known[N++] = skippableAt(I);
  Symbolizer S;
  if (!Known || !S.init(Known.begin(), N, Fns))
    return;
  forEachSpike([&](const SpikeRecord &Const) {
    auto &R = const_cast<SpikeRecord &>(Const);
    auto *Sampled = const_cast<SampledFrame *>(R.sampled());
    for (uint32_t K = 0; K < R.NumSampled; ++K) {
      SampledFrame &F = Sampled[K];
      if (F.Fn < Lo || F.Fn >= Hi)
        continue;
      if (F.Flags & SampledTimed) {
        F.Flags |= S.isTimedPath(F.Fn) ? SampledTimedPath : 0;
      } else {
        const spiketrap_desc *D = S.describe(F.Fn);
        // The symbolizer's own go with it: the runtime keeps a copy.
        F.Desc = madeForSymbol(D) ? copyDesc(D) : Detach(D);
      }
      F.Fn = 0;
    }
  });
}
} // namespace

void spikesDetachRange(uintptr_t Lo, uintptr_t Hi) {
  SpikeReader Reading; // it rewrites records: none may be replaced meanwhile
  // Samples taken before may name its code: no spike recorded from now on
  // takes them.
  samplerForgetSamples();
  auto In = [&](const void *P) {
    return uintptr_t(P) >= Lo && uintptr_t(P) < Hi;
  };
  // Copies made in this call, so a descriptor is copied once.
  struct Copy {
    const spiketrap_desc *From, *To;
  } Copies[64];
  size_t NumCopies = 0;
  // D itself, or the runtime's copy of it if it lies in [Lo, Hi).
  auto Detach = [&](const spiketrap_desc *D) {
    if (!D || !(In(D) || In(__spiketrap_desc_name(D)) ||
                In(__spiketrap_desc_file(D))))
      return D;
    for (size_t I = 0; I < NumCopies; ++I)
      if (Copies[I].From == D)
        return Copies[I].To;
    const spiketrap_desc *To = copyDesc(D);
    if (NumCopies < sizeof(Copies) / sizeof(Copies[0]))
      Copies[NumCopies++] = {D, To};
    return To;
  };
  nameSampledCode(Lo, Hi, Detach);
  forEachSpike([&](const SpikeRecord &Const) {
    auto &R = const_cast<SpikeRecord &>(Const);
    auto *Sampled = const_cast<SampledFrame *>(R.sampled());
    for (uint32_t K = 0; K < R.NumSampled; ++K)
      Sampled[K].Desc = Detach(Sampled[K].Desc);
    for (uint32_t L = 0; L < R.Levels; ++L)
      R.Level[L].Desc = Detach(R.Level[L].Desc);
    for (uint32_t I = 0; I < R.NumCandidates; ++I)
      R.Candidates[I] = Detach(R.Candidates[I]);
    auto *Recent = const_cast<RecentCall *>(R.recent());
    for (uint32_t I = 0; I < R.NumRecent; ++I)
      Recent[I].Desc = Detach(Recent[I].Desc);
    R.LongestWaitDesc = Detach(R.LongestWaitDesc);
  });
  for (IdleFunction *F = idleFunctions(), *E = F + kIdleFunctions; F < E; ++F)
    if (const spiketrap_desc *D = __atomic_load_n(&F->Desc, __ATOMIC_ACQUIRE))
      __atomic_store_n(&F->Desc, Detach(D), __ATOMIC_RELEASE);
}

} // namespace __spiketrap
