//===- spiketrap_api.cpp - The run-time API of spiketrap.h ----------------===//
//
// Everything here acts on the calling thread's ThreadState outside the hooks,
// so it adds nothing to them: pause and inactive are Status values (hooks
// already return at once when not Active), ignoring is a kNever threshold,
// messages live in a per-thread pool the hooks never touch. See docs/api.md.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_api.h"
#include "spiketrap_capture.h"
#include "spiketrap_channels.h"
#include "spiketrap_clock.h"
#include "spiketrap_descriptor_layout.h"
#include "spiketrap_flags.h"
#include "spiketrap_registry.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

using namespace __spiketrap;

namespace {

// The calling thread, registered if it never ran a hook; null when the
// runtime is switched off or busy.
ThreadState *ready() {
  ThreadState &T = threadState;
  if (T.Status == StatusNew)
    threadReady(T);
  if (T.Status == StatusNew || T.Status == StatusBusy || T.Status == StatusDead)
    return nullptr;
  return &T;
}

// The innermost open frame, or null (none, or the call was past kMaxDepth
// and has no frame of its own).
Frame *current(ThreadState *T) {
  uint32_t D = T ? T->Depth : 0;
  return D && D <= kMaxDepth ? &T->Frames[D - 1] : nullptr;
}

void updateStatus(ThreadState &T) {
  T.Status = T.Inactive     ? StatusInactive
             : T.PauseDepth ? StatusPaused
                            : StatusActive;
}

uint64_t toTicks(uint64_t Ns) { return Ns ? nsToTicks(Ns) : 0; }

uint32_t openFrames(const ThreadState &T) {
  return T.Depth < kMaxDepth ? T.Depth : kMaxDepth;
}

bool liveMessage(const ThreadState &T, const MessageSlot &S) {
  return liveMessage(T, S, openFrames(T));
}

// Formats into the current frame's slot of this kind, else into a slot whose
// frame is gone; with all slots in use by open frames, the message is lost.
void attach(ThreadState &T, Frame &F, uint8_t Kind, const char *Fmt,
            va_list Ap) {
  uint32_t Level = uint32_t(&F - T.Frames);
  MessageSlot *Slot = nullptr;
  for (MessageSlot &S : T.Messages)
    if (liveMessage(T, S) && S.Level == Level && S.Kind == Kind)
      Slot = &S;
  for (MessageSlot &S : T.Messages)
    if (!Slot && !liveMessage(T, S))
      Slot = &S;
  if (!Slot)
    return;
  // Unpublished while written: a spike recorded by a signal handler skips it.
  Slot->Desc = nullptr;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  vsnprintf(Slot->Text, kMessageBytes, Fmt, Ap);
  Slot->Level = Level;
  Slot->Kind = Kind;
  Slot->Start = F.Start;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  Slot->Desc = F.Desc;
}

uint64_t LastMark;         // ticks at the last frame mark, 0: none yet
uint32_t LastMarkTid;      // the thread that made it
uint64_t FrameBudgetTicks; // 0: frames are not spikes of their own
spiketrap_desc_abs FrameDesc = {
    {0, SPIKETRAP_DESC_ABS_STATE}, 0, "(frame)", "", nullptr};

} // namespace

namespace __spiketrap {
void lastFrameMark(uint64_t &Ticks, uint32_t &Tid) {
  Tid = __atomic_load_n(&LastMarkTid, __ATOMIC_RELAXED);
  Ticks = __atomic_load_n(&LastMark, __ATOMIC_RELAXED);
}

void apiInit() {
  FrameBudgetTicks = toTicks(uint64_t(flags.frame_budget_us) * 1000);
  channelsInit(flags.disable_channels);
}
} // namespace __spiketrap

SPIKETRAP_EXPORT void spiketrap_scope_begin(spiketrap_scope *S,
                                            spiketrap_desc *D) {
  S->desc = D;
  S->frame = S;
  if (!D)
    return;
  // A scope nested in another of the same function may have its object at a
  // higher address than the outer one (the compiler lays out locals as it
  // likes): it then takes an address just below the outer frame's, which
  // still lies above every callee. A top frame below this function's own
  // frame is dead (left by longjmp) and is dropped by the entry as usual.
  volatile char Here = 0;
  ThreadState &T = threadState;
  uint32_t Depth = T.Depth;
  if (Depth && Depth <= kMaxDepth) {
    uintptr_t Top = uintptr_t(T.Frames[Depth - 1].Addr);
    if (Top <= uintptr_t(S) && Top > uintptr_t(&Here))
      S->frame = reinterpret_cast<void *>(Top - 1);
  }
  __spiketrap_enter(D, S->frame);
}

SPIKETRAP_EXPORT void spiketrap_scope_end(spiketrap_scope *S) {
  if (S->desc)
    __spiketrap_exit(S->desc, S->frame);
}

SPIKETRAP_EXPORT void spiketrap_set_global_threshold_ns(uint64_t Ns) {
  if (!ready() || !Ns)
    return;
  flags.threshold = Ns; // the report's header names it
  __atomic_store_n(&globalThresholdTicks, nsToTicks(Ns), __ATOMIC_RELAXED);
}

SPIKETRAP_EXPORT void spiketrap_set_frame_threshold_ns(uint64_t Ns) {
  if (Frame *F = current(ready()))
    F->Threshold = toTicks(Ns);
}

SPIKETRAP_EXPORT void spiketrap_set_children_threshold_ns(uint64_t Ns) {
  if (Frame *F = current(ready()))
    F->ChildThreshold = toTicks(Ns);
}

// Every open frame below the current one; ignored frames stay ignored.
SPIKETRAP_EXPORT void spiketrap_set_parents_threshold_ns(uint64_t Ns) {
  ThreadState *T = ready();
  Frame *F = current(T);
  if (!F)
    return;
  for (Frame *P = T->Frames; P < F; ++P)
    if (P->Threshold != kNever)
      P->Threshold = toTicks(Ns);
}

SPIKETRAP_EXPORT void spiketrap_ignore_frame(void) {
  if (Frame *F = current(ready()))
    F->Threshold = kNever;
}

SPIKETRAP_EXPORT void spiketrap_ignore_children(void) {
  if (Frame *F = current(ready()))
    F->ChildThreshold = kNever;
}

SPIKETRAP_EXPORT void spiketrap_messagef(const char *Fmt, ...) {
  ThreadState *T = ready();
  Frame *F = current(T);
  if (!F)
    return;
  va_list Ap;
  va_start(Ap, Fmt);
  attach(*T, *F, MessageDesc, Fmt, Ap);
  va_end(Ap);
}

// Costs a clock read unless the frame is over its threshold already.
SPIKETRAP_EXPORT void spiketrap_ot_messagef(const char *Fmt, ...) {
  ThreadState *T = ready();
  Frame *F = current(T);
  if (!F)
    return;
  uint64_t Thr = resolvedThreshold(F->Threshold);
  if (Thr == kNever || now() - F->Start <= Thr)
    return;
  va_list Ap;
  va_start(Ap, Fmt);
  attach(*T, *F, MessageOverThreshold, Fmt, Ap);
  va_end(Ap);
}

SPIKETRAP_EXPORT void spiketrap_pause(void) {
  ThreadState *T = ready();
  if (!T)
    return;
  if (T->PauseDepth++ == 0)
    T->PauseStart = now();
  updateStatus(*T);
}

// Open frames (and their messages) move their start by the paused time.
SPIKETRAP_EXPORT void spiketrap_unpause(void) {
  ThreadState *T = ready();
  if (!T || !T->PauseDepth)
    return;
  if (--T->PauseDepth == 0) {
    shiftOpenFrames(*T, openFrames(*T), now() - T->PauseStart);
  }
  updateStatus(*T);
}

// Frames open across an inactive time were not timed throughout: never
// reported.
SPIKETRAP_EXPORT void spiketrap_set_thread_active(int Active) {
  ThreadState *T = ready();
  if (!T || T->Inactive == !Active)
    return;
  T->Inactive = !Active;
  uint32_t D = T->Depth < kMaxDepth ? T->Depth : kMaxDepth;
  for (uint32_t I = 0; I < D; ++I)
    T->Frames[I].Threshold = kNever;
  updateStatus(*T);
}

SPIKETRAP_EXPORT void spiketrap_set_thread_name(const char *Name) {
  ThreadState &T = threadState;
  strncpy(T.Name, Name ? Name : "", sizeof(T.Name) - 1);
}

SPIKETRAP_EXPORT void spiketrap_set_channel_enabled(const char *Channel,
                                                    int Enabled) {
  if (ready())
    setChannelEnabled(Channel, Enabled != 0);
}

SPIKETRAP_EXPORT void spiketrap_frame_mark(void) {
  ThreadState *T = ready();
  if (!T)
    return;
  uint64_t Now = now();
  uint64_t Prev = __atomic_exchange_n(&LastMark, Now, __ATOMIC_RELAXED);
  __atomic_store_n(&LastMarkTid, T->Tid, __ATOMIC_RELAXED);
  uint64_t N = __atomic_add_fetch(&frameNumber, 1, __ATOMIC_RELAXED);
  if (!Prev)
    return;
  __atomic_fetch_add(&FrameDesc.state.calls, 1, __ATOMIC_RELAXED);
  uint64_t Budget = __atomic_load_n(&FrameBudgetTicks, __ATOMIC_RELAXED);
  if (Budget && Now - Prev > Budget)
    recordFrameSpike(*T, &FrameDesc.desc, Prev, Now, Budget, N - 1);
}

SPIKETRAP_EXPORT void spiketrap_set_frame_budget_ns(uint64_t Ns) {
  if (ready())
    __atomic_store_n(&FrameBudgetTicks, toTicks(Ns), __ATOMIC_RELAXED);
}

SPIKETRAP_EXPORT void spiketrap_pause_scope_end_(int *Paused) {
  if (*Paused)
    spiketrap_unpause();
}
