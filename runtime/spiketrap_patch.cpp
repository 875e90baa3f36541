//===- spiketrap_patch.cpp - Switching patchable sites --------------------===//
//
// Requests come from any thread, signal handlers included, through a bounded
// lock-free queue (Vyukov's: a sequence number per cell, one CAS to claim
// it). One thread at a time applies them, under PatchLock, which dlclose and
// fork take too.
//
// Rewriting code other threads may be running: the patchable instruction is
// rewritten whole by one aligned store (2 bytes on x86-64, as XRay flips its
// sleds; a 4-byte NOP <-> B on AArch64, an instruction pair the architecture
// allows to be modified while it runs, followed by cache maintenance), so a
// thread sees the old instruction or the new one. The pages stay executable
// while writable (PROT_READ|PROT_WRITE|PROT_EXEC for the few instructions of
// a batch): a thread running there must not fault. Where the system refuses
// writable code (a W^X policy: SELinux execmod, PaX MPROTECT, a seccomp
// filter), the runtime says so once and stops patching: the trampoline
// honours `off` by jumping straight to the function's code.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_patch.h"
#include "spiketrap_arch.h"
#include "spiketrap_array.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_tramp.h"

#include <stdlib.h>
#include <string.h>

#if defined(SPIKETRAP_SITE_SIZE)
static_assert(SPIKETRAP_DESC_ENTRY == __builtin_offsetof(spiketrap_desc, entry),
              "spiketrap_tramp.h: the trampolines read entry there");
#endif

namespace __spiketrap {

namespace {

// Requests: a power of two. A batch is applied every millisecond or so; a
// program switches off at most a few thousand functions in its first
// seconds.
constexpr uint32_t kQueueSize = 1 << 13;

struct Cell {
  uint32_t Seq;
  spiketrap_desc *Desc;
};
Cell Queue[kQueueSize];
uint32_t Enqueue, Dequeue; // positions; Enqueue claimed with a CAS
bool QueueReady;

SpinLock PatchLock;
PatchStats Stats;
// The system refuses writable code (found at start-up, or by a batch): stop
// trying, and say so once, when a site first asks.
bool Refused;
int RefusedErrno;
bool Told;

void queueInit() {
  for (uint32_t I = 0; I < kQueueSize; ++I)
    Queue[I].Seq = I;
  __atomic_store_n(&QueueReady, true, __ATOMIC_RELEASE);
}

bool push(spiketrap_desc *D) {
  uint32_t Pos = __atomic_load_n(&Enqueue, __ATOMIC_RELAXED);
  for (;;) {
    Cell &C = Queue[Pos & (kQueueSize - 1)];
    uint32_t Seq = __atomic_load_n(&C.Seq, __ATOMIC_ACQUIRE);
    int32_t Diff = int32_t(Seq - Pos);
    if (Diff == 0) {
      if (__atomic_compare_exchange_n(&Enqueue, &Pos, Pos + 1, true,
                                      __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
        C.Desc = D;
        __atomic_store_n(&C.Seq, Pos + 1, __ATOMIC_RELEASE);
        return true;
      }
    } else if (Diff < 0) {
      return false; // full
    } else {
      Pos = __atomic_load_n(&Enqueue, __ATOMIC_RELAXED);
    }
  }
}

// The one consumer (PatchLock held).
spiketrap_desc *pop() {
  uint32_t Pos = Dequeue;
  Cell &C = Queue[Pos & (kQueueSize - 1)];
  if (__atomic_load_n(&C.Seq, __ATOMIC_ACQUIRE) != Pos + 1)
    return nullptr; // empty, or a producer between its CAS and its store
  spiketrap_desc *D = C.Desc;
  __atomic_store_n(&C.Seq, Pos + kQueueSize, __ATOMIC_RELEASE);
  __atomic_store_n(&Dequeue, Pos + 1, __ATOMIC_RELEASE);
  return D;
}

#if defined(SPIKETRAP_SITE_SIZE)
using Insn = arch::SiteInsn;

// Code is read and written past the sanitizers: ThreadSanitizer has no
// shadow memory for the text segment.
#if __has_attribute(disable_sanitizer_instrumentation)
#define SPIKETRAP_CODE_ACCESS __attribute__((disable_sanitizer_instrumentation))
#else
#define SPIKETRAP_CODE_ACCESS
#endif
SPIKETRAP_CODE_ACCESS uint32_t loadWord(const char *P) {
  uint32_t W;
  __builtin_memcpy(&W, P, sizeof(W));
  return W;
}
SPIKETRAP_CODE_ACCESS Insn loadInsn(const char *Site) {
  return __atomic_load_n(reinterpret_cast<const Insn *>(Site),
                         __ATOMIC_RELAXED);
}
SPIKETRAP_CODE_ACCESS void storeInsn(char *Site, Insn V) {
  __atomic_store_n(reinterpret_cast<Insn *>(Site), V, __ATOMIC_RELEASE);
}

// The timed form of the site at Site: its jump lands past the function's
// landing pad, if it starts with one (endbr64, bti c).
Insn timedForm(const char *Site) {
  return arch::siteTimed(arch::isLandingPad(loadWord(Site - 4)));
}

size_t PageSize;

void refuse(int Err) {
  Refused = true;
  RefusedErrno = Err;
  ++Stats.Refused;
}

void tellRefused() {
  if (__atomic_exchange_n(&Told, true, __ATOMIC_RELAXED))
    return;
  logLine("cannot rewrite instrumented code (mprotect: {}): functions "
          "switched off still pass through the runtime on every call",
          strerror(RefusedErrno));
}

// Rewrites every site of Sites[0..N) (sorted) to match its descriptor's
// `off`, one mprotect pair per run of adjacent pages.
void rewrite(spiketrap_desc **Descs, size_t N) {
  // A seccomp filter may kill the process for an mprotect with PROT_EXEC.
  if (sandboxCheck())
    return;
  size_t I = 0;
  while (I < N && !Refused) {
    auto Page = [](spiketrap_desc *D) {
      return uintptr_t(__spiketrap_desc_entry(D)) & ~(PageSize - 1);
    };
    uintptr_t First = Page(Descs[I]), Last = First;
    size_t J = I + 1;
    while (J < N && Page(Descs[J]) <= Last + PageSize)
      Last = Page(Descs[J++]);
    size_t Len = Last - First + PageSize;
    if (int Err = protectCode(reinterpret_cast<void *>(First), Len, true)) {
      refuse(Err);
      return;
    }
    Stats.Pages += Len / PageSize;
    for (; I < J; ++I) {
      char *Site = static_cast<char *>(__spiketrap_desc_entry(Descs[I]));
      Insn On = timedForm(Site), Off = arch::kSiteOff;
      Insn Want = __atomic_load_n(&__spiketrap_desc_state(Descs[I])->off,
                                  __ATOMIC_RELAXED)
                      ? Off
                      : On;
      Insn Now = loadInsn(Site);
      // Not a site as the pass lays them out: leave it alone.
      if (Now != On && Now != Off)
        continue;
      if (Now == Want)
        continue;
      storeInsn(Site, Want);
      arch::flushCode(Site, Site + sizeof(Insn));
      ++Stats.Sites;
    }
    if (int Err = protectCode(reinterpret_cast<void *>(First), Len, false))
      refuse(Err);
  }
}

// PatchLock held. Drops requests for descriptors in [Lo, Hi).
void applyLocked(uintptr_t Lo, uintptr_t Hi) {
  constexpr size_t kBatch = 512;
  spiketrap_desc *Batch[kBatch];
  for (;;) {
    size_t N = 0;
    while (N < kBatch) {
      spiketrap_desc *D = pop();
      if (!D)
        break;
      if (uintptr_t(D) >= Lo && uintptr_t(D) < Hi)
        continue;
      if (!Refused)
        Batch[N++] = D;
    }
    if (!N)
      return;
    ++Stats.Batches;
    sortBy(Batch, Batch + N, [](spiketrap_desc *A, spiketrap_desc *B) {
      return __spiketrap_desc_entry(A) < __spiketrap_desc_entry(B);
    });
    rewrite(Batch, N);
  }
}

// Whether a request is waiting (or being pushed: its pusher applies it).
bool pending() {
  uint32_t Pos = __atomic_load_n(&Dequeue, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&Queue[Pos & (kQueueSize - 1)].Seq,
                         __ATOMIC_SEQ_CST) == Pos + 1;
}
#endif // SPIKETRAP_SITE_SIZE

} // namespace

void requestPatch(spiketrap_desc *D) {
#if defined(SPIKETRAP_SITE_SIZE)
  if (!__spiketrap_desc_entry(D) ||
      !__atomic_load_n(&QueueReady, __ATOMIC_ACQUIRE) || sandboxed())
    return;
  if (__atomic_load_n(&Refused, __ATOMIC_RELAXED))
    return tellRefused();
  if (!push(D))
    __atomic_fetch_add(&Stats.Dropped, 1, __ATOMIC_RELAXED);
#else
  (void)D;
#endif
}

void applyPendingPatches() {
#if defined(SPIKETRAP_SITE_SIZE)
  PatchLock.lock();
  applyLocked(0, 0);
  PatchLock.unlock();
#endif
}

void applyPendingPatchesNow() {
#if defined(SPIKETRAP_SITE_SIZE)
  // Whoever holds the lock looks at the queue again after letting go, so a
  // request pushed meanwhile (by another thread, or a signal handler on
  // this one) is never left behind.
  while (pending()) {
    if (!PatchLock.tryLock())
      return;
    applyLocked(0, 0);
    PatchLock.unlock();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  }
#endif
}

void patchDetachRange(uintptr_t Lo, uintptr_t Hi) {
#if defined(SPIKETRAP_SITE_SIZE)
  PatchLock.lock();
  applyLocked(Lo, Hi);
  PatchLock.unlock();
#else
  (void)Lo, (void)Hi;
#endif
}

void patchBeforeFork() { PatchLock.lock(); }
void patchAfterForkParent() { PatchLock.unlock(); }
void patchAfterForkChild() { PatchLock.reset(); }

namespace {
void printStats() {
  PatchStats S = patchStats();
  logLine("sites: {} rewritten in {} batches ({} pages made writable), {} "
          "requests dropped{}",
          S.Sites, S.Batches, S.Pages, S.Dropped,
          !flags.patch ? "; patching off (patch=0)"
          : S.Works    ? ""
                       : "; patching refused by the system");
}
} // namespace

void patchInit() {
#if defined(SPIKETRAP_SITE_SIZE)
  if (flags.verbosity >= 1)
    atexit(printStats);
  PageSize = pageSize();
  if (!flags.patch)
    return; // the queue stays closed: requests are dropped
  // Whether the system lets code be writable (a W^X policy may not): tried
  // on a page of the runtime's own code, before any other thread exists.
  auto Page = reinterpret_cast<void *>(uintptr_t(&applyPendingPatches) &
                                       ~(PageSize - 1));
  if (int Err = protectCode(Page, PageSize, true))
    refuse(Err);
  else
    protectCode(Page, PageSize, false);
  queueInit();
#endif
}

PatchStats patchStats() {
  PatchStats S = Stats;
  S.Works = !Refused;
  return S;
}

} // namespace __spiketrap
