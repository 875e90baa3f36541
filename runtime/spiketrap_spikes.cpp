//===- spiketrap_spikes.cpp - Spike record arena --------------------------===//
#include "spiketrap_spikes.h"
#include "spiketrap_platform.h"
#include "spiketrap_registry.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_symbols.h"
#include "spiketrap_waits.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {
char *Arena;
uint64_t ArenaSize, MappedSize; // the arena; with its slot table
uint64_t ArenaUsed; // bumped atomically; may run past ArenaSize when full
uint64_t Recorded;  // records written (replaced ones included)
uint64_t Hangs;
uint64_t Dropped;  // spikes never written
uint64_t Replaced; // records that made room for a longer spike
uint32_t MainTid; // the process's first thread's id (firstThreadId)
bool RecordIdle;
// SpikeRecord::Committed: 0 while its first writer is at work; complete;
// past the last record; claimed by a spike that replaces it.
constexpr uint32_t kComplete = 1, kEndOfArena = 2, kReplacing = 3;

// The slot table, one entry per record in order of reservation, after the
// arena in the same mapping: where a full arena's records are and how long
// each was, so a spike finds the shortest it fits in without reading the
// records. Buckets holds 1 + bucketOf(its key) once the record is
// complete, 0 while it is written or when it is never to be replaced (a
// hang record): one byte each, so a search reads 8 slots per word.
struct SlotRoom {
  uint32_t Off8, Size8; // the record's offset and room, in 8-byte units
};
SlotRoom *Rooms;
uint64_t *Keys; // activeTicks of the record (what reports rank by)
uint8_t *Buckets;
uint64_t MaxSlots, NumSlots;
constexpr uint64_t kMinRecord =
    (offsetof(SpikeRecord, Level) + sizeof(SpikeLevel) + 7) & ~uint64_t(7);
// Keys by quarter octave (252 buckets): complete records in each, and
// where in the table a search for one begins (lowered by each record that
// enters the bucket, raised by a search to the first it found): a hint, so
// a search for the few records left in a bucket does not read the table
// from its start each time.
constexpr uint32_t kBuckets = 252;
uint32_t BucketCount[kBuckets];
uint64_t BucketFrom[kBuckets];
// The largest room (in 8 bytes) of a record in each bucket, at most: raised
// by each record that enters it, lowered by a search that read the whole
// bucket. A spike needing more skips the bucket instead of reading the
// table through (a deep spike after a storm of shallow ones: libevent's
// test-time at 1 us ran 2 minutes instead of 2 seconds).
uint32_t BucketRoom[kBuckets];
// Set by the first reservation that found the arena full: from then on a
// spike only replaces a record (nothing is bumped any more).
uint32_t Full;
// Where the next search of a spike's own bucket starts: a window of
// kWindow slots, kWindowLooks of them in that bucket looked at.
uint64_t Cursor;
constexpr uint64_t kWindow = 256, kWindowLooks = 32;
// Replacers at work (low 32 bits) and SpikeReaders (above).
uint64_t Gate;
constexpr uint64_t kReader = uint64_t(1) << 32, kReplacers = kReader - 1;

uint32_t bucketOf(uint64_t Key) {
  if (Key < 4)
    return uint32_t(Key);
  uint32_t E = 63 - uint32_t(__builtin_clzll(Key));
  return 4 * (E - 1) + uint32_t((Key >> (E - 2)) & 3);
}

// Pages are made resident ahead of the records, kPrefault bytes at a time,
// so recording a spike takes no page fault (tens of microseconds on a VM,
// seen by whoever timed the call around it).
constexpr uint64_t kPrefault = 64 << 10;
uint64_t Prefaulted; // bytes of the arena made resident

// Makes [P, P + Len) of the arena's mapping resident for writing without
// changing a byte, safe while other threads write records there: the read
// of each page races with them by design (its value is not used), so
// ThreadSanitizer does not watch it.
SPIKETRAP_RACY_READER void populate(char *P, uint64_t Len) {
  if (!Len)
    return;
  uintptr_t Lo = uintptr_t(P) & ~uintptr_t(4095), Hi = uintptr_t(P) + Len;
  if (populatePages(reinterpret_cast<char *>(Lo), Hi - Lo, /*ForWrite=*/true)) {
    // On a VM the first access from user mode to freshly populated memory
    // still costs 60-160 us (no page fault counted); pay it here, not in the
    // first spike's callers.
    for (uintptr_t A = Lo; A < Hi; A += 4096)
      (void)SPIKETRAP_RACY(*reinterpret_cast<char *>(A));
    return;
  }
  // Kernels before 5.14: a write per page that changes nothing.
  for (uintptr_t A = Lo; A < Hi; A += 4096)
    arch::touchForWrite(reinterpret_cast<char *>(A));
}

// The slot table's entries for the arena's bytes [From, To).
void populateSlots(uint64_t From, uint64_t To) {
  uint64_t First = From / kMinRecord, Last = To / kMinRecord + 1;
  Last = Last < MaxSlots ? Last : MaxSlots;
  if (First >= Last)
    return;
  populate(reinterpret_cast<char *>(Rooms + First),
           (Last - First) * sizeof(SlotRoom));
  populate(reinterpret_cast<char *>(Keys + First),
           (Last - First) * sizeof(uint64_t));
  populate(reinterpret_cast<char *>(Buckets + First), Last - First);
}

// Makes the arena resident up to Upto (rounded up to kPrefault).
void prefault(uint64_t Upto) {
  uint64_t Have = __atomic_load_n(&Prefaulted, __ATOMIC_RELAXED);
  while (Have < Upto && Have < ArenaSize) {
    uint64_t Want = Have + kPrefault < ArenaSize ? Have + kPrefault : ArenaSize;
    if (!__atomic_compare_exchange_n(&Prefaulted, &Have, Want, false,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      continue; // another thread took this chunk; Have is reloaded
    populate(Arena + Have, Want - Have);
    populateSlots(Have, Want);
    Have = Want;
  }
}

// The code of the rare paths (recording, re-arming, the cold halves of the
// hooks) runs first at the first spike, where faulting its pages in (tens of
// microseconds on a VM) lands inside the caller's measurement: made
// resident now (the runtime's code is one object's, in one piece).
void warmCode() { warmCodeAround(reinterpret_cast<void *>(&commit), 1 << 20); }
} // namespace

void spikesInit(uint64_t Bytes, bool Idle) {
  RecordIdle = Idle;
  // Untouched pages cost nothing: the kernel maps them on first write. The
  // slot table follows the arena, each array page-aligned.
  auto PageUp = [](uint64_t N) { return (N + 4095) & ~uint64_t(4095); };
  uint64_t Slots = Bytes / kMinRecord + 1;
  uint64_t KeysAt = PageUp(Bytes), RoomsAt = KeysAt + PageUp(Slots * 8),
           BucketsAt = RoomsAt + PageUp(Slots * sizeof(SlotRoom));
  MappedSize = BucketsAt + PageUp(Slots);
  void *P = mapPages(MappedSize, /*NoReserve=*/true);
  if (!P)
    return; // every spike will be counted as dropped
  Arena = static_cast<char *>(P);
  ArenaSize = Bytes;
  Keys = reinterpret_cast<uint64_t *>(Arena + KeysAt);
  Rooms = reinterpret_cast<SlotRoom *>(Arena + RoomsAt);
  Buckets = reinterpret_cast<uint8_t *>(Arena + BucketsAt);
  MaxSlots = Slots;
  MainTid = firstThreadId();
  prefault(kPrefault);
  warmCode();
}

uint64_t frameNumber;

namespace {
// Finds the next slot from I (below N) whose bucket byte is V, or N: a
// word at a time. The bytes change under it (other replacers): a candidate
// is checked again before it is claimed.
SPIKETRAP_RACY_READER uint64_t findBucket(uint8_t V, uint64_t I, uint64_t N) {
  for (; I < N && (I & 7); ++I)
    if (SPIKETRAP_RACY(Buckets[I]) == V)
      return I;
  const uint64_t Ones = 0x0101010101010101ull, Pattern = Ones * V;
  for (; I + 8 <= N; I += 8) {
    uint64_t W;
    __builtin_memcpy(&W, Buckets + I, 8);
    W ^= Pattern; // a zero byte where the bucket is V
    if ((W - Ones) & ~W & (Ones << 7))
      break;
  }
  for (; I < N; ++I)
    if (SPIKETRAP_RACY(Buckets[I]) == V)
      return I;
  return N;
}

// The arena is full: claims the room of the shortest complete record that
// is shorter than Key and has Size bytes at least (within the quarter
// octave of the shortest: the lowest bucket that has one), or returns null.
// On success the caller holds a replacer's place in the Gate until commit.
SpikeRecord *replace(uint64_t Size, uint64_t Key) {
  if (!Key || !Rooms)
    return nullptr;
  if (__atomic_fetch_add(&Gate, 1, __ATOMIC_SEQ_CST) >= kReader) {
    __atomic_fetch_sub(&Gate, 1, __ATOMIC_RELEASE); // a reader is at work
    return nullptr;
  }
  uint64_t N = __atomic_load_n(&NumSlots, __ATOMIC_ACQUIRE);
  N = N < MaxSlots ? N : MaxSlots;
  uint32_t Top = bucketOf(Key);
  for (uint32_t B = 0; B <= Top; ++B) {
    if (!__atomic_load_n(&BucketCount[B], __ATOMIC_RELAXED))
      continue;
    uint32_t Room = __atomic_load_n(&BucketRoom[B], __ATOMIC_RELAXED);
    if (uint64_t(Room) * 8 < Size)
      continue; // no record there has room for it
    // Below its own bucket every record is shorter: the first with room
    // will do. In its own bucket most may be longer (a storm of spikes of
    // one length): a window of the table, a new one each time, bounds it.
    uint64_t From = 0, To = N, Looks = B == Top ? kWindowLooks : UINT64_MAX;
    uint32_t Seen = 0; // the largest room in the bucket a whole read met
    uint64_t Hint = UINT64_MAX;
    if (B == Top && N > kWindow) {
      From = __atomic_fetch_add(&Cursor, kWindow, __ATOMIC_RELAXED) % N;
      To = From + kWindow < N ? From + kWindow : N;
    } else {
      Hint = __atomic_load_n(&BucketFrom[B], __ATOMIC_RELAXED);
      From = Hint < N ? Hint : N;
    }
    uint64_t I = findBucket(uint8_t(B + 1), From, To);
    // A hint past the bucket's records (a record that entered it while a
    // search raised the hint): the next search reads the whole table.
    if (Hint != UINT64_MAX && I != Hint)
      __atomic_compare_exchange_n(&BucketFrom[B], &Hint, I < To ? I : 0, false,
                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    for (; I < To && Looks;
         I = findBucket(uint8_t(B + 1), I + 1, To), --Looks) {
      if (__atomic_load_n(&Buckets[I], __ATOMIC_ACQUIRE) != B + 1)
        continue;
      Seen = Rooms[I].Size8 > Seen ? Rooms[I].Size8 : Seen;
      if (uint64_t(Rooms[I].Size8) * 8 < Size ||
          __atomic_load_n(&Keys[I], __ATOMIC_RELAXED) >= Key)
        continue;
      auto *R =
          reinterpret_cast<SpikeRecord *>(Arena + uint64_t(Rooms[I].Off8) * 8);
      uint32_t Want = kComplete;
      if (!__atomic_compare_exchange_n(&R->Committed, &Want, kReplacing, false,
                                       __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        continue; // another replacer has it
      // Ours now: check it is still the record we chose (it may have been
      // replaced since), and that no reader came (one that did may have
      // read it already: it must not change under that reader).
      bool Same = __atomic_load_n(&Buckets[I], __ATOMIC_RELAXED) == B + 1 &&
                  __atomic_load_n(&Keys[I], __ATOMIC_RELAXED) < Key;
      if (Same && __atomic_load_n(&Gate, __ATOMIC_SEQ_CST) < kReader) {
        noteLost(R->Level[R->Levels - 1].Desc, Keys[I]);
        __atomic_store_n(&Buckets[I], 0, __ATOMIC_RELAXED);
        __atomic_fetch_sub(&BucketCount[B], 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&Replaced, 1, __ATOMIC_RELAXED);
        return R;
      }
      __atomic_store_n(&R->Committed, kComplete, __ATOMIC_RELEASE);
      if (!Same)
        continue;
      B = Top; // a reader came: no replacing now
      break;
    }
    // Below its own bucket the search read the bucket through from its
    // first record (the hint), none with room: the bound comes down to what
    // it holds, unless a record entered since.
    if (B < Top && Seen < Room)
      __atomic_compare_exchange_n(&BucketRoom[B], &Room, Seen, false,
                                  __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
  __atomic_fetch_sub(&Gate, 1, __ATOMIC_RELEASE);
  return nullptr;
}

// Bumps the arena's end for a record of Size bytes; null when full.
SpikeRecord *bump(uint64_t Size) {
  uint64_t Off = __atomic_fetch_add(&ArenaUsed, Size, __ATOMIC_RELAXED);
  if (!Arena || Off + Size > ArenaSize) {
    // The one reservation that straddles the end marks where records stop.
    if (Arena && Off < ArenaSize &&
        Off + offsetof(SpikeRecord, Level) <= ArenaSize)
      __atomic_store_n(&reinterpret_cast<SpikeRecord *>(Arena + Off)->Committed,
                       kEndOfArena, __ATOMIC_RELEASE);
    __atomic_store_n(&Full, 1, __ATOMIC_RELAXED);
    return nullptr;
  }
  // Every record is kMinRecord bytes at least: the table has room.
  uint64_t Slot = __atomic_fetch_add(&NumSlots, 1, __ATOMIC_RELAXED);
  Rooms[Slot] = {uint32_t(Off / 8), uint32_t(Size / 8)};
  auto *R = reinterpret_cast<SpikeRecord *>(Arena + Off);
  R->Size = uint32_t(Size);
  R->Slot = uint32_t(Slot);
  return R;
}

} // namespace

SpikeRecord *reserve(uint64_t Key, bool *Replacing, uint32_t Levels,
                     Extras &E) {
  auto Round = [](uint64_t N) { return (N + 7) & ~uint64_t(7); };
  uint64_t Core = offsetof(SpikeRecord, Level) + Levels * sizeof(SpikeLevel);
  uint64_t Sampled = E.Sampled * sizeof(SampledFrame),
           Messages = E.Messages * sizeof(SpikeMessage),
           Kernel = E.Kernel ? Levels * sizeof(KernelLevel) : 0,
           Recent = E.Recent * sizeof(RecentCall);
  SpikeRecord *R = nullptr;
  *Replacing = false;
  if (!__atomic_load_n(&Full, __ATOMIC_RELAXED))
    R = bump(Round(Core + Sampled + Messages + Kernel + Recent));
  if (!R && Core <= ArenaSize && (R = replace(Round(Core), Key))) {
    *Replacing = true;
    uint64_t Left = R->Size - Core;
    auto Fits = [&](uint64_t Bytes) {
      return Bytes <= Left ? (Left -= Bytes, true) : false;
    };
    E.Sampled = Fits(Sampled) ? E.Sampled : 0;
    E.Messages = Fits(Messages) ? E.Messages : 0;
    E.Kernel = Fits(Kernel) && E.Kernel;
    E.Recent = Fits(Recent) ? E.Recent : 0;
  }
  if (!R) {
    __atomic_fetch_add(&Dropped, 1, __ATOMIC_RELAXED);
    return nullptr;
  }
  R->Levels = Levels;
  R->NumMessages = E.Messages;
  R->Frame = __atomic_load_n(&frameNumber, __ATOMIC_RELAXED);
  R->IsFrame = 0;
  R->Signo = 0;
  R->SignalLevel = 0;
  R->NumCandidates = 0;
  R->Hang = 0;
  R->Unwound = 0;
  R->NumRecent = 0;
  R->HasKernel = E.Kernel;
  R->NumSampled = E.Sampled;
  R->Sampled = {};
  R->LongestWaitTicks = 0;
  R->LongestWaitDesc = nullptr;
  R->LongestWaitCall = WaitNone;
  R->WaitLowerBound = 0;
  R->LongestWaitIdle = 0;
  R->Idle = 0;
  R->RunDelayNs = 0;
  R->HasRunDelay = 0;
  return R;
}

void commit(ThreadState &T, SpikeRecord *R, bool Replacing) {
  R->Tid = T.Tid;
  threadNameForSpike(T);
  threadDisplayName(T, R->ThreadName);
  __atomic_fetch_add(R->Hang ? &Hangs : &Recorded, 1, __ATOMIC_RELAXED);
  if (!R->Hang) {
    uint64_t Key = R->activeTicks();
    uint32_t B = bucketOf(Key);
    uint64_t From = __atomic_load_n(&BucketFrom[B], __ATOMIC_RELAXED);
    while (R->Slot < From &&
           !__atomic_compare_exchange_n(&BucketFrom[B], &From, R->Slot, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      ;
    __atomic_store_n(&Keys[R->Slot], Key, __ATOMIC_RELAXED);
    uint32_t Room = __atomic_load_n(&BucketRoom[B], __ATOMIC_RELAXED);
    while (Rooms[R->Slot].Size8 > Room &&
           !__atomic_compare_exchange_n(&BucketRoom[B], &Room,
                                        Rooms[R->Slot].Size8, false,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      ;
    __atomic_fetch_add(&BucketCount[B], 1, __ATOMIC_RELAXED);
    __atomic_store_n(&Buckets[R->Slot], uint8_t(B + 1), __ATOMIC_RELEASE);
  }
  __atomic_store_n(&R->Committed, kComplete, __ATOMIC_RELEASE);
  if (Replacing) {
    __atomic_fetch_sub(&Gate, 1, __ATOMIC_RELEASE);
    return;
  }
  // The next records' pages, now rather than inside a later spike (a room
  // keeps its place and size, whoever holds it).
  prefault(recordOffset(R) + R->Size + kPrefault / 2);
}

uint64_t recordOffset(const SpikeRecord *R) {
  return uint64_t(reinterpret_cast<const char *>(R) - Arena);
}

bool onMainThread(const ThreadState &T) { return T.Tid == MainTid; }
bool recordIdleCalls() { return RecordIdle; }

namespace {
// D's entry in a table of functions (an open-addressed hash of descriptors,
// lock-free, safe in a signal handler), taken if it has none; null when
// the table is full.
template <typename Entry, uint32_t N>
Entry *entryFor(Entry (&Table)[N], const spiketrap_desc *D) {
  uint32_t H = uint32_t((uintptr_t(D) >> 3) * 2654435761u);
  for (uint32_t I = 0; I < N; ++I) {
    Entry &F = Table[(H + I) % N];
    const spiketrap_desc *Have = __atomic_load_n(&F.Desc, __ATOMIC_ACQUIRE);
    if (!Have &&
        __atomic_compare_exchange_n(&F.Desc, &Have, D, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      Have = D;
    if (Have == D)
      return &F;
  }
  return nullptr;
}

// Raises Worst to Ticks; whether Ticks is the worst now.
bool raiseWorst(uint64_t &Worst, uint64_t Ticks) {
  uint64_t Was = __atomic_load_n(&Worst, __ATOMIC_RELAXED);
  while (Ticks > Was &&
         !__atomic_compare_exchange_n(&Worst, &Was, Ticks, false,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
  return Ticks >= Was;
}

IdleFunction IdleTable[kIdleFunctions];
uint64_t IdleCalls;
LostFunction LostTable[kLostFunctions];

} // namespace

// A function that finds the table full is counted in the total only.
void noteIdle(const spiketrap_desc *D, uint64_t Ticks, uint32_t Call) {
  __atomic_fetch_add(&IdleCalls, 1, __ATOMIC_RELAXED);
  if (IdleFunction *F = entryFor(IdleTable, D)) {
    __atomic_fetch_add(&F->Calls, 1, __ATOMIC_RELAXED);
    if (raiseWorst(F->WorstTicks, Ticks))
      __atomic_store_n(&F->Call, Call, __ATOMIC_RELAXED);
  }
}

void noteLost(const spiketrap_desc *D, uint64_t Ticks) {
  if (LostFunction *F = entryFor(LostTable, D)) {
    __atomic_fetch_add(&F->Spikes, 1, __ATOMIC_RELAXED);
    raiseWorst(F->WorstTicks, Ticks);
  }
}

const LostFunction *lostFunctions() { return LostTable; }
IdleFunction *idleFunctions() { return IdleTable; }
uint64_t idleCalls() { return __atomic_load_n(&IdleCalls, __ATOMIC_RELAXED); }

void threadDisplayName(const ThreadState &T, char *Out) {
  // A name set through the API wins; else the main thread is reported as
  // such, others by the name the kernel has for them (read without a system
  // call: this may be inside the callers' time).
  if (T.Name[0])
    __builtin_memcpy(Out, T.Name, 16);
  else if (T.Tid == MainTid)
    __builtin_memcpy(Out, "main", 5);
  else
    threadKernelName(T, Out);
}

SpikeReader::SpikeReader() {
  __atomic_fetch_add(&Gate, kReader, __ATOMIC_SEQ_CST);
  // Up to ~10 ms: a replacer on another thread finishes in microseconds;
  // one this thread interrupted never does while we wait.
  unsigned Spins = 0;
  while ((__atomic_load_n(&Gate, __ATOMIC_ACQUIRE) & kReplacers) &&
         Spins < 2000)
    backOff(Spins);
}

SpikeReader::~SpikeReader() {
  __atomic_fetch_sub(&Gate, kReader, __ATOMIC_RELEASE);
}

namespace {
// The state of the record at Off once its writer is done: a record whose
// writer is still at work after a short wait (another thread, or the
// thread the reader interrupted) is left as it is; 0 past the last record.
// (Sequentially consistent with replace()'s claim and look at the Gate: a
// SpikeReader sees a record claimed, or its replacer sees the reader.)
uint32_t stateAt(uint64_t Off) {
  uint64_t Used = __atomic_load_n(&ArenaUsed, __ATOMIC_ACQUIRE);
  if (!Arena || Off + offsetof(SpikeRecord, Level) > Used ||
      Off + offsetof(SpikeRecord, Level) > ArenaSize)
    return 0;
  auto *R = reinterpret_cast<const SpikeRecord *>(Arena + Off);
  uint32_t State;
  for (int Spin = 0;; ++Spin) {
    State = __atomic_load_n(&R->Committed, __ATOMIC_SEQ_CST);
    if ((State != 0 && State != kReplacing) || Spin > 100000)
      return State;
  }
}
} // namespace

bool spikeArenaFull() { return __atomic_load_n(&Full, __ATOMIC_RELAXED); }

const SpikeRecord *spikeAt(uint64_t Off) {
  return stateAt(Off) == kComplete
             ? reinterpret_cast<const SpikeRecord *>(Arena + Off)
             : nullptr;
}

// A record still being written ends the walk (its size may not be written
// yet); one being replaced keeps its size, and is skipped.
const SpikeRecord *nextSpike(uint64_t *Off) {
  for (;;) {
    uint32_t State = stateAt(*Off);
    if (State != kComplete && State != kReplacing)
      return nullptr;
    auto *R = reinterpret_cast<const SpikeRecord *>(Arena + *Off);
    *Off += R->Size;
    if (State == kComplete)
      return R;
  }
}

void spikesAfterForkChild() {
  ArenaUsed = Recorded = Hangs = Dropped = Replaced = frameNumber = IdleCalls =
      0;
  NumSlots = Gate = Full = Cursor = 0;
  __builtin_memset(BucketCount, 0, sizeof(BucketCount));
  __builtin_memset(BucketFrom, 0, sizeof(BucketFrom));
  __builtin_memset(BucketRoom, 0, sizeof(BucketRoom));
  __builtin_memset(IdleTable, 0, sizeof(IdleTable));
  __builtin_memset(LostTable, 0, sizeof(LostTable));
  MainTid = firstThreadId();
  // The parent's records are the parent's: the child's copy of the arena and
  // its table go back to untouched zero pages, faulted in ahead as at start.
  if (Arena)
    discardPages(Arena, MappedSize);
  Prefaulted = 0;
  prefault(kPrefault);
}

SpikeTotals spikeTotals() {
  uint64_t Gone = __atomic_load_n(&Replaced, __ATOMIC_RELAXED),
           Written = __atomic_load_n(&Recorded, __ATOMIC_RELAXED);
  return {Written > Gone ? Written - Gone : 0,
          __atomic_load_n(&Dropped, __ATOMIC_RELAXED) + Gone, Gone,
          __atomic_load_n(&Hangs, __ATOMIC_RELAXED)};
}

} // namespace __spiketrap
