//===- spiketrap_spikes.cpp - Spike record arena --------------------------===//
#include "spiketrap_spikes.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_arch.h"
#include "spiketrap_kernel_events.h"
#include "spiketrap_recent.h"
#include "spiketrap_registry.h"
#include "spiketrap_rundelay.h"
#include "spiketrap_sampler.h"
#include "spiketrap_signal.h"
#include "spiketrap_symbols.h"
#include "spiketrap_waits.h"

#include <link.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

namespace __spiketrap {

namespace {
char *Arena;
uint64_t ArenaSize;
uint64_t ArenaUsed; // bumped atomically; may run past ArenaSize when full
uint64_t Recorded;
uint64_t Hangs;
uint64_t Dropped;
uint32_t Pid;
bool RecordIdle;
constexpr uint32_t kComplete = 1, kEndOfArena = 2; // SpikeRecord::Committed

// Pages are made resident ahead of the records, kPrefault bytes at a time,
// so recording a spike takes no page fault (tens of microseconds on a VM,
// seen by whoever timed the call around it).
constexpr uint64_t kPrefault = 64 << 10;
uint64_t Prefaulted; // bytes of the arena made resident

// Makes [Off, Off + Len) of the arena resident for writing without changing
// a byte, safe while other threads write records there: the read of each
// page races with them by design (its value is not used), so
// ThreadSanitizer does not watch it.
SPIKETRAP_RACY_READER void populate(uint64_t Off, uint64_t Len) {
  if (madvise(Arena + Off, Len, MADV_POPULATE_WRITE) == 0) {
    // On a VM the first access from user mode to freshly populated memory
    // still costs 60-160 us (no page fault counted); pay it here, not in the
    // first spike's callers.
    for (uint64_t P = Off; P < Off + Len; P += 4096)
      (void)SPIKETRAP_RACY(Arena[P]);
    return;
  }
  // Kernels before 5.14: a write per page that changes nothing.
  for (uint64_t P = Off; P < Off + Len; P += 4096)
    arch::touchForWrite(Arena + P);
}

// Makes the arena resident up to Upto (rounded up to kPrefault).
void prefault(uint64_t Upto) {
  uint64_t Have = __atomic_load_n(&Prefaulted, __ATOMIC_RELAXED);
  while (Have < Upto && Have < ArenaSize) {
    uint64_t Want = Have + kPrefault < ArenaSize ? Have + kPrefault : ArenaSize;
    if (!__atomic_compare_exchange_n(&Prefaulted, &Have, Want, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      continue; // another thread took this chunk; Have is reloaded
    populate(Have, Want - Have);
    Have = Want;
  }
}

// The code of the rare paths (recording, re-arming, the cold halves of the
// hooks) runs first at the first spike, where faulting its pages in (tens of
// microseconds on a VM) lands inside the caller's measurement. Map the
// runtime's code in now: the PT_LOAD segment holding this function, at most
// 1 MiB around it (the runtime's code is one object's, in one piece).
int warmSegment(dl_phdr_info *Info, size_t, void *Addr) {
  uintptr_t A = uintptr_t(Addr);
  for (int I = 0; I < Info->dlpi_phnum; ++I) {
    const ElfW(Phdr) &P = Info->dlpi_phdr[I];
    uintptr_t Lo = Info->dlpi_addr + P.p_vaddr, Hi = Lo + P.p_memsz;
    if (P.p_type != PT_LOAD || A < Lo || A >= Hi)
      continue;
    constexpr uintptr_t kAround = 1 << 20, kPage = 4096;
    Lo = (A - Lo > kAround ? A - kAround : Lo) & ~(kPage - 1);
    Hi = Hi - A > kAround ? A + kAround : Hi;
    madvise(reinterpret_cast<void *>(Lo), Hi - Lo, MADV_POPULATE_READ);
    return 1;
  }
  return 0;
}

void warmCode() {
  dl_iterate_phdr(warmSegment, reinterpret_cast<void *>(&recordSpike));
}
} // namespace

void spikesInit(uint64_t Bytes, bool Idle) {
  RecordIdle = Idle;
  // Untouched pages cost nothing: the kernel maps them on first write.
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (P == MAP_FAILED)
    return; // every spike will be counted as dropped
  Arena = static_cast<char *>(P);
  ArenaSize = Bytes;
  Pid = uint32_t(getpid());
  prefault(kPrefault);
  warmCode();
}

uint64_t frameNumber;

namespace {
// Reserves a record of Levels levels, Messages messages, Recent recent
// calls, (Kernel) the kernel's events per level and Sampled frames; null
// when full.
SpikeRecord *reserve(uint32_t Levels, uint32_t Messages, uint32_t Recent = 0,
                     bool Kernel = false, uint32_t Sampled = 0) {
  uint64_t Size = offsetof(SpikeRecord, Level) + Levels * sizeof(SpikeLevel) +
                  Messages * sizeof(SpikeMessage) + Recent * sizeof(RecentCall) +
                  (Kernel ? Levels * sizeof(KernelLevel) : 0) +
                  Sampled * sizeof(SampledFrame);
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
  R->NumCandidates = 0;
  R->Hang = 0;
  R->Unwound = 0;
  R->NumRecent = 0;
  R->HasKernel = Kernel;
  R->NumSampled = Sampled;
  R->Sampled = {};
  R->LongestWaitTicks = 0;
  R->LongestWaitDesc = nullptr;
  R->LongestWaitCall = WaitNone;
  R->WaitLowerBound = 0;
  R->LongestWaitIdle = 0;
  R->Idle = 0;
  R->RunDelayNs = 0;
  R->HasRunDelay = 0;
  R->Reserved = 0;
  return R;
}

// Names the thread and publishes the record.
void commit(ThreadState &T, SpikeRecord *R) {
  R->Tid = T.Tid;
  threadNameForSpike(T);
  threadDisplayName(T, R->ThreadName);
  __atomic_fetch_add(R->Hang ? &Hangs : &Recorded, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&R->Committed, kComplete, __ATOMIC_RELEASE);
}
} // namespace

namespace {
// Fills R with the Depth open frames of T, the last of which ends at End,
// and their live messages (Messages of them).
void fillRecord(ThreadState &T, SpikeRecord *R, uint32_t Depth, uint64_t End,
                uint32_t Messages) {
  R->End = End;
  // Handlers left by siglongjmp are dropped first, judged by the spiking call.
  uint32_t Floor = signalFloor(T, uintptr_t(T.Frames[Depth - 1].Addr));
  R->Signo = T.NumSignals ? T.Signals[T.NumSignals - 1].Signo : 0;
  R->SignalLevel = Floor;
  for (uint32_t I = 0; I < Depth; ++I) {
    const Frame &F = T.Frames[I];
    R->Level[I] = {F.Desc, F.Start, resolvedThreshold(F.Threshold),
                   F.ChildTicks, 0, 0};
  }
  // How much of each level was spent waiting, idle or held up, and on what.
  WaitSummary W;
  sumWaits(T, R->Level, Depth, End, T.Tid == Pid, W);
  R->LongestWaitTicks = W.LongestTicks;
  R->LongestWaitDesc = W.LongestDesc;
  R->LongestWaitCall = W.LongestCall;
  R->WaitLowerBound = W.LowerBound;
  R->LongestWaitIdle = W.LongestIdle;
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
}

} // namespace

namespace {
IdleFunction IdleTable[kIdleFunctions];
uint64_t IdleCalls;

// A call of D was over its threshold only by Ticks of idle waiting, mostly
// in Call: count it (lock-free, safe in a signal handler; a function that
// finds the table full is counted in the total only).
void noteIdle(const spiketrap_desc *D, uint64_t Ticks, uint32_t Call) {
  __atomic_fetch_add(&IdleCalls, 1, __ATOMIC_RELAXED);
  uint32_t H = uint32_t((uintptr_t(D) >> 3) * 2654435761u);
  for (uint32_t I = 0; I < kIdleFunctions; ++I) {
    IdleFunction &F = IdleTable[(H + I) % kIdleFunctions];
    const spiketrap_desc *Have = __atomic_load_n(&F.Desc, __ATOMIC_ACQUIRE);
    if (!Have && __atomic_compare_exchange_n(&F.Desc, &Have, D, false,
                                             __ATOMIC_ACQ_REL,
                                             __ATOMIC_ACQUIRE))
      Have = D;
    if (Have != D)
      continue;
    __atomic_fetch_add(&F.Calls, 1, __ATOMIC_RELAXED);
    uint64_t Worst = __atomic_load_n(&F.WorstTicks, __ATOMIC_RELAXED);
    while (Ticks > Worst &&
           !__atomic_compare_exchange_n(&F.WorstTicks, &Worst, Ticks, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      ;
    if (Ticks >= Worst)
      __atomic_store_n(&F.Call, Call, __ATOMIC_RELAXED);
    return;
  }
}
} // namespace

const IdleFunction *idleFunctions() { return IdleTable; }
uint64_t idleCalls() { return __atomic_load_n(&IdleCalls, __ATOMIC_RELAXED); }

namespace {
// Whether the hang watchdog reported the open call F of T as hung: its return
// is recorded, idle or not, so the report says how long it took (the
// watchdog's fields, read racily: a stale value only records an idle call).
SPIKETRAP_RACY_READER bool reportedHung(const ThreadState &T, const Frame &F) {
  return SPIKETRAP_RACY(T.Watch.Desc) == F.Desc &&
         SPIKETRAP_RACY(T.Watch.Start) == F.Start;
}
} // namespace

IdleVerdict judgeIdle(ThreadState &T, uint32_t Depth, uint64_t End) {
  const Frame &Call = T.Frames[Depth - 1];
  uint32_t IdleCall;
  uint64_t Idle = idleTicks(T, Depth, End, T.Tid == Pid, &IdleCall);
  if (!Idle || End - Call.Start - Idle > resolvedThreshold(Call.Threshold))
    return IdleVerdict::Spike;
  noteIdle(Call.Desc, End - Call.Start, IdleCall);
  return RecordIdle || reportedHung(T, Call) ? IdleVerdict::RecordIdle
                                             : IdleVerdict::Drop;
}

void recordSpike(ThreadState &T, uint32_t Depth, uint64_t End,
                 const SpikeCandidates &Candidates, RunDelay Preempted,
                 bool Unwound, bool Idle) {
  uint32_t Messages = 0;
  for (const MessageSlot &S : T.Messages)
    Messages += liveMessage(T, S, Depth);
  uint32_t Recent = recentCount(T);
  // Where the samples taken while it ran agree its time went.
  SampledFrame Sampled[kMaxSampled];
  SampledStats Stats;
  uint32_t NumSampled = sampledChain(T, Depth - 1, End, Sampled, Stats);
  // No switched-off callee named: those the watcher timed again while it
  // ran (sample=1: it saw the call past its threshold in its own time).
  SpikeCandidates Named = Candidates;
  if (!Named.Num)
    Named.Num = samplerRearmed(T, Depth - 1, Named.Desc);
  SpikeRecord *R = reserve(Depth, Messages, Recent, T.Kernel, NumSampled);
  if (R) {
    fillRecord(T, R, Depth, End, Messages);
    R->NumRecent = recentCopy(T, const_cast<RecentCall *>(R->recent()), Recent);
    R->HasKernel = sumKernelEvents(T, R->Level, Depth, End,
                                   const_cast<KernelLevel *>(R->kernel()));
    __builtin_memcpy(const_cast<SampledFrame *>(R->sampled()), Sampled,
                     NumSampled * sizeof(SampledFrame));
    R->Sampled = Stats;
    R->NumCandidates = Named.Num;
    R->Unwound = Unwound;
    R->Idle = Idle;
    R->RunDelayNs = Preempted.Ns;
    R->HasRunDelay = Preempted.Has;
    __builtin_memcpy(R->Candidates, Named.Desc,
                     Named.Num * sizeof(Named.Desc[0]));
    commit(T, R);
    // The next records' pages, now rather than inside a later spike.
    prefault(uint64_t(reinterpret_cast<char *>(R) - Arena) + R->Size +
             kPrefault / 2);
  }
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
  R->Level[0] = {Desc, Start, Budget, 0, 0, 0};
  commit(T, R);
}

void threadDisplayName(const ThreadState &T, char *Out) {
  // A name set through the API wins; else the main thread is reported as
  // such, others by the name the kernel has for them (read without a system
  // call: this may be inside the callers' time).
  if (T.Name[0])
    __builtin_memcpy(Out, T.Name, 16);
  else if (T.Tid == Pid)
    __builtin_memcpy(Out, "main", 5);
  else
    threadKernelName(T, Out);
}

SPIKETRAP_RACY_READER uint32_t snapshotStack(const ThreadState &T,
                                             SpikeLevel *Out,
                                             uint64_t *CallsOut) {
  for (int Try = 0; Try < 4; ++Try) {
    uint64_t Calls = SPIKETRAP_RACY(T.Calls);
    uint32_t Depth = SPIKETRAP_RACY(T.Depth);
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (Depth > kMaxDepth)
      return 0; // past the capacity the innermost frames are not kept
    uint32_t Copied = 0;
    for (; Copied < Depth; ++Copied) {
      const Frame &F = T.Frames[Copied];
      // An entry hook midway (its thread preempted there): the frame's start
      // is not written yet. The stack ends above it.
      if (uintptr_t(SPIKETRAP_RACY(F.Addr)) == kUnderConstruction)
        break;
      uint64_t Thr = SPIKETRAP_RACY(F.Threshold);
      Out[Copied] = {SPIKETRAP_RACY(F.Desc), SPIKETRAP_RACY(F.Start),
                     resolvedThreshold(Thr), SPIKETRAP_RACY(F.ChildTicks), 0,
                     0};
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    // No call meanwhile and the same depth: every frame copied was open and
    // unchanged (a frame is only rewritten by the call that pushes it).
    if (SPIKETRAP_RACY(T.Calls) == Calls && SPIKETRAP_RACY(T.Depth) == Depth) {
      if (CallsOut)
        *CallsOut = Calls;
      return Copied;
    }
  }
  return 0;
}

uint64_t recordHang(ThreadState &T, const SpikeLevel *Level, uint32_t Levels,
                    uint64_t Now) {
  SpikeRecord *R = reserve(Levels, 0);
  if (!R)
    return UINT64_MAX;
  R->End = Now;
  R->Hang = 1;
  __builtin_memcpy(R->Level, Level, Levels * sizeof(SpikeLevel));
  commit(T, R);
  return uint64_t(reinterpret_cast<char *>(R) - Arena);
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
  ArenaUsed = Recorded = Hangs = Dropped = frameNumber = IdleCalls = 0;
  __builtin_memset(IdleTable, 0, sizeof(IdleTable));
  Pid = uint32_t(getpid());
  // The parent's resident pages are shared copy-on-write: fault ours in.
  Prefaulted = 0;
  prefault(kPrefault);
}

namespace {
const spiketrap_desc_abs Unloaded = {
    {0, SPIKETRAP_DESC_ABS_STATE}, "(unloaded code)", "", nullptr};

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
  C->Desc = {*D, Name, File, nullptr, __spiketrap_desc_line(D),
             *__spiketrap_desc_state(D)};
  if (!madeForSymbol(D))
    C->Desc.desc.flags &=
        ((1u << SPIKETRAP_DESC_CALLEES_SHIFT) - 1) &
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
  for (IdleFunction &F : IdleTable)
    if (const spiketrap_desc *D = __atomic_load_n(&F.Desc, __ATOMIC_ACQUIRE))
      __atomic_store_n(&F.Desc, Detach(D), __ATOMIC_RELEASE);
}

SpikeTotals spikeTotals() {
  return {__atomic_load_n(&Recorded, __ATOMIC_RELAXED),
          __atomic_load_n(&Dropped, __ATOMIC_RELAXED),
          __atomic_load_n(&Hangs, __ATOMIC_RELAXED)};
}

} // namespace __spiketrap
