//===- spiketrap_spikes.cpp - Spike record arena --------------------------===//
#include "spiketrap_spikes.h"
#include "spiketrap_signal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace __spiketrap {

namespace {
char *Arena;
uint64_t ArenaSize;
uint64_t ArenaUsed; // bumped atomically; may run past ArenaSize when full
uint64_t Recorded;
uint64_t Dropped;
uint32_t Pid;
constexpr uint32_t kComplete = 1, kEndOfArena = 2; // SpikeRecord::Committed
} // namespace

void spikesInit(uint64_t Bytes) {
  // Untouched pages cost nothing: the kernel maps them on first write.
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return; // every spike will be counted as dropped
  Arena = static_cast<char *>(P);
  ArenaSize = Bytes;
  Pid = uint32_t(getpid());
}

uint64_t frameNumber;

namespace {
// Whether message slot S still belongs to an open frame of T below Depth.
bool liveMessage(const ThreadState &T, const MessageSlot &S, uint32_t Depth) {
  return S.Desc && S.Level < Depth && T.Frames[S.Level].Desc == S.Desc &&
         T.Frames[S.Level].Start == S.Start;
}

// Reserves a record of Levels levels and Messages messages; null when full.
SpikeRecord *reserve(uint32_t Levels, uint32_t Messages) {
  uint64_t Size = offsetof(SpikeRecord, Level) + Levels * sizeof(SpikeLevel) +
                  Messages * sizeof(SpikeMessage);
  Size = (Size + 7) & ~uint64_t(7);
  uint64_t Off = __atomic_fetch_add(&ArenaUsed, Size, __ATOMIC_RELAXED);
  if (!Arena || Off + Size > ArenaSize) {
    // The one reservation that straddles the end marks where records stop.
    if (Arena && Off + offsetof(SpikeRecord, Level) <= ArenaSize)
      __atomic_store_n(&reinterpret_cast<SpikeRecord *>(Arena + Off)->Committed,
                       kEndOfArena, __ATOMIC_RELEASE);
    __atomic_fetch_add(&Dropped, 1, __ATOMIC_RELAXED);
    return nullptr;
  }
  auto *R = reinterpret_cast<SpikeRecord *>(Arena + Off);
  R->Size = uint32_t(Size);
  R->Levels = Levels;
  R->NumMessages = Messages;
  R->Frame = __atomic_load_n(&frameNumber, __ATOMIC_RELAXED);
  R->IsFrame = 0;
  R->Signo = 0;
  R->SignalLevel = 0;
  return R;
}

// Names the thread and publishes the record.
void commit(ThreadState &T, SpikeRecord *R) {
  R->Tid = T.Tid;
  // A name set through the API wins; else the main thread is reported as
  // such, others by the name the kernel has for them now (prctl is
  // async-signal-safe; spikes are rare).
  if (T.Name[0])
    __builtin_memcpy(R->ThreadName, T.Name, sizeof(R->ThreadName));
  else if (T.Tid == Pid)
    __builtin_memcpy(R->ThreadName, "main", 5);
  else if (prctl(PR_GET_NAME, R->ThreadName) != 0)
    R->ThreadName[0] = 0;
  __atomic_fetch_add(&Recorded, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&R->Committed, kComplete, __ATOMIC_RELEASE);
}
} // namespace

void recordSpike(ThreadState &T, uint32_t Depth, uint64_t End) {
  uint32_t Messages = 0;
  for (const MessageSlot &S : T.Messages)
    Messages += liveMessage(T, S, Depth);
  SpikeRecord *R = reserve(Depth, Messages);
  if (!R)
    return;
  R->End = End;
  // Handlers left by siglongjmp are dropped first, judged by the spiking call.
  uint32_t Floor = signalFloor(T, uintptr_t(T.Frames[Depth - 1].Addr));
  R->Signo = T.NumSignals ? T.Signals[T.NumSignals - 1].Signo : 0;
  R->SignalLevel = Floor;
  for (uint32_t I = 0; I < Depth; ++I) {
    const Frame &F = T.Frames[I];
    R->Level[I] = {F.Desc, F.Start,
                   F.Threshold ? F.Threshold : globalThresholdTicks,
                   F.ChildTicks};
  }
  // Bounded copies: the pool slots are reused once their frame is gone.
  auto *M = const_cast<SpikeMessage *>(R->messages());
  uint32_t N = 0;
  for (const MessageSlot &S : T.Messages)
    if (N < Messages && liveMessage(T, S, Depth)) {
      M[N].Level = S.Level;
      M[N].Kind = S.Kind;
      __builtin_memcpy(M[N].Text, S.Text, kMessageBytes);
      M[N++].Text[kMessageBytes - 1] = 0;
    }
  R->NumMessages = N;
  commit(T, R);
}

void recordFrameSpike(ThreadState &T, const spiketrap_desc *Desc,
                      uint64_t Start, uint64_t End, uint64_t Budget,
                      uint64_t Frame) {
  SpikeRecord *R = reserve(1, 0);
  if (!R)
    return;
  R->End = End;
  R->Frame = Frame;
  R->IsFrame = 1;
  R->Level[0] = {Desc, Start, Budget};
  commit(T, R);
}

// A record whose writer is still at work (another thread, or the thread the
// report interrupted) ends the walk after a short wait.
const SpikeRecord *spikeAt(uint64_t Off) {
  uint64_t Used = __atomic_load_n(&ArenaUsed, __ATOMIC_ACQUIRE);
  if (!Arena || Off + offsetof(SpikeRecord, Level) > Used ||
      Off + offsetof(SpikeRecord, Level) > ArenaSize)
    return nullptr;
  auto *R = reinterpret_cast<const SpikeRecord *>(Arena + Off);
  uint32_t State;
  for (int Spin = 0;
       !(State = __atomic_load_n(&R->Committed, __ATOMIC_ACQUIRE)); ++Spin)
    if (Spin > 100000)
      return nullptr;
  return State == kComplete ? R : nullptr;
}

void spikesAfterForkChild() {
  ArenaUsed = Recorded = Dropped = frameNumber = 0;
  Pid = uint32_t(getpid());
}

namespace {
const spiketrap_desc Unloaded = {0, 0, "(unloaded code)", "", 0, 0, nullptr, 0};

// Runtime-owned copies of descriptors of unloaded objects, kept for the
// whole run in a list: the records that point to them are in the arena.
struct OwnedDesc {
  spiketrap_desc Desc;
  OwnedDesc *Next;
};
OwnedDesc *Owned;

const spiketrap_desc *copyDesc(const spiketrap_desc *D) {
  auto *C = static_cast<OwnedDesc *>(malloc(sizeof(OwnedDesc)));
  char *Name = strdup(D->name ? D->name : "");
  char *File = strdup(D->file ? D->file : "");
  if (!C || !Name || !File) { // out of memory: say what we can
    free(C), free(Name), free(File);
    return &Unloaded;
  }
  C->Desc = *D;
  C->Desc.name = Name;
  C->Desc.file = File;
  C->Desc.channel = nullptr;
  C->Next = Owned;
  Owned = C;
  return &C->Desc;
}
} // namespace

void spikesDetachRange(uintptr_t Lo, uintptr_t Hi) {
  auto In = [&](const void *P) {
    return uintptr_t(P) >= Lo && uintptr_t(P) < Hi;
  };
  // Copies made in this call, so a descriptor is copied once.
  struct Copy {
    const spiketrap_desc *From, *To;
  } Copies[64];
  size_t NumCopies = 0;
  forEachSpike([&](const SpikeRecord &Const) {
    auto &R = const_cast<SpikeRecord &>(Const);
    for (uint32_t L = 0; L < R.Levels; ++L) {
      const spiketrap_desc *D = R.Level[L].Desc;
      if (!D || !(In(D) || In(D->name) || In(D->file)))
        continue;
      const spiketrap_desc *To = nullptr;
      for (size_t I = 0; I < NumCopies && !To; ++I)
        if (Copies[I].From == D)
          To = Copies[I].To;
      if (!To) {
        To = copyDesc(D);
        if (NumCopies < sizeof(Copies) / sizeof(Copies[0]))
          Copies[NumCopies++] = {D, To};
      }
      R.Level[L].Desc = To;
    }
  });
}

SpikeTotals spikeTotals() {
  return {__atomic_load_n(&Recorded, __ATOMIC_RELAXED),
          __atomic_load_n(&Dropped, __ATOMIC_RELAXED)};
}

} // namespace __spiketrap
