//===- spiketrap_sigaction.cpp - Wrapping the program's signal handlers ---===//
//
// The interposed sigaction() and signal() install the program's handlers
// behind a trampoline that records a SignalContext on the thread for as long
// as the handler runs (spiketrap_signal.h says what the hooks make of it).
//
// The trampoline times the handler too. Its time is taken out of the code
// it interrupted (keepHandlerTimeApart); and the part of it no timed call
// of the handler accounts for (a handler never instrumented, or switched
// off by adaptive mode) is a spike of its own when over the threshold: a
// frame of a descriptor made for the handler, on top of the interrupted
// stack, named by the handler's symbol at report time.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_sigaction.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_capture.h"
#include "spiketrap_clock.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_report.h"
#include "spiketrap_report_signal.h"
#include "spiketrap_sampler.h"
#include "spiketrap_signal.h"
#include "spiketrap_spikes.h"
#include "spiketrap_spinlock.h"
#include "spiketrap_static.h"
#include "spiketrap_symbols.h"
#include "spiketrap_thread.h"

#include <atomic>
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

// glibc's own entry point, so our sigaction() can call the real one.
extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

namespace __spiketrap {

namespace {

// What the trampoline needs of the program's action for each signal we wrap,
// in one word, so a handler never reads an action half-updated by another
// thread: the handler's address, whether it takes siginfo, whether it runs
// on the alternate stack (user-space addresses leave the top bits free).
// Everything else (flags, mask, restorer) stays in the kernel's action,
// which sigaction() reports. 0 is SIG_DFL.
constexpr uint64_t kSigInfoBit = 1ull << 63, kOnStackBit = 1ull << 62;
constexpr uint64_t kAddressBits = kOnStackBit - 1;
uint64_t Handlers[NSIG];

uint64_t pack(const struct sigaction &A) {
  uint64_t W = (A.sa_flags & SA_SIGINFO) ? uint64_t(A.sa_sigaction)
                                         : uint64_t(A.sa_handler);
  return (W & kAddressBits) | ((A.sa_flags & SA_SIGINFO) ? kSigInfoBit : 0) |
         ((A.sa_flags & SA_ONSTACK) ? kOnStackBit : 0);
}

// Installing an action and updating its word is one step for other threads:
// a spin lock taken with every signal blocked, so a handler calling
// sigaction() on the same thread never waits for it. Held for one system
// call; made anew in a forked child.
SpinLock TableLock;
class TableGuard {
public:
  TableGuard() {
    sigset_t All;
    sigfillset(&All);
    pthread_sigmask(SIG_SETMASK, &All, &Saved);
    TableLock.lock();
  }
  ~TableGuard() {
    TableLock.unlock();
    pthread_sigmask(SIG_SETMASK, &Saved, nullptr);
  }
  TableGuard(const TableGuard &) = delete;
  TableGuard &operator=(const TableGuard &) = delete;

private:
  sigset_t Saved;
};

// A descriptor for each handler the program installed (the first
// kMaxHandlers), so the trampoline can time one as a frame: named "signal
// handler" until a report names it by its symbol (nameSignalHandlers).
constexpr uint32_t kMaxHandlers = 64;
struct HandlerDesc {
  spiketrap_desc_abs D;
  uintptr_t Fn; // 0: a free entry
  bool Used;    // in a spike record: to be named
  char Name[128];
  char File[256];
};
HandlerDesc HandlerDescs[kMaxHandlers];

// Makes a descriptor for the handler Fn, unless it has one or the table is
// full (then the trampoline times it for the interrupted code only). Under
// the table lock.
void makeHandlerDesc(uintptr_t Fn) {
  if (reportSignalHandlerIs(Fn))
    return;
  for (HandlerDesc &E : HandlerDescs) {
    uintptr_t Have = __atomic_load_n(&E.Fn, __ATOMIC_ACQUIRE);
    if (Have == Fn)
      return;
    if (Have)
      continue;
    strcpy(E.Name, "signal handler");
    E.File[0] = 0;
    E.D.desc.state = SPIKETRAP_DESC_ABS_STATE;
    E.D.name = E.Name;
    E.D.file = E.File;
    __atomic_store_n(&E.Fn, Fn, __ATOMIC_RELEASE);
    return;
  }
}

// In a signal handler: Fn's descriptor, or null.
HandlerDesc *handlerDesc(uintptr_t Fn) {
  for (HandlerDesc &E : HandlerDescs) {
    uintptr_t Have = __atomic_load_n(&E.Fn, __ATOMIC_ACQUIRE);
    if (Have == Fn)
      return &E;
    if (!Have)
      break;
  }
  return nullptr;
}

// What the trampoline notes at delivery, to time the handler.
struct Delivery {
  uint64_t Calls;      // T.Calls: an instrumented call since means timed code
  uint64_t ChildTicks; // of the interrupted frame (Floor - 1), which the
                       // handler's timed calls add to
  bool Building;       // that frame was under construction
};

void handlerBegins(ThreadState &T, uint32_t N, Delivery &D) {
  uint32_t Floor = T.Signals[N].Floor;
  D.Calls = T.Calls;
  D.ChildTicks = 0;
  D.Building = false;
  if (T.Frames && Floor && Floor <= kMaxDepth) {
    D.ChildTicks = T.Frames[Floor - 1].ChildTicks;
    D.Building = uintptr_t(T.Frames[Floor - 1].Addr) == kUnderConstruction;
  }
  T.SignalStart[N] = now(); // last: nearest the handler
}

// The handler Fn of context N has returned: the part of its time its timed
// calls do not account for is a spike of Fn when over the threshold, then
// its time is taken out of the code it interrupted.
void handlerEnds(ThreadState &T, uint32_t N, const Delivery &D, uintptr_t Fn) {
  uint64_t End = now();
  const SignalContext &C = T.Signals[N];
  uint64_t Start = T.SignalStart[N];
  uint32_t Floor = C.Floor;
  bool Framed = T.Frames && Floor <= kMaxDepth;
  // Its timed calls' time, which they added to the interrupted frame's
  // callees (given back: the handler is not its callee).
  uint64_t Timed = 0;
  bool Known = T.Calls == D.Calls;
  if (Framed && Floor) {
    uint64_t &Child = T.Frames[Floor - 1].ChildTicks;
    Timed = Child - D.ChildTicks;
    Child = D.ChildTicks;
    Known = true;
  }
  uint64_t Ticks = End > Start ? End - Start : 0;
  HandlerDesc *HD = handlerDesc(Fn);
  if (HD) { // its calls, as the report counts a function's (spiked/calls)
    uint64_t *Calls = &__spiketrap_desc_state(&HD->D.desc)->calls;
    __atomic_store_n(Calls, __atomic_load_n(Calls, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
  }
  if (HD && Known && Ticks > Timed && Ticks - Timed > globalThresholdTicks &&
      Framed && Floor < kMaxDepth && T.Depth == Floor &&
      T.Status == StatusActive) {
    // Its frame, for as long as the record takes: activations of the
    // handler lie below C.Base (on the alternate stack, if there).
    Frame &F = T.Frames[Floor];
    F.Desc = &HD->D.desc;
    F.Addr = reinterpret_cast<void *>(C.Base - 1);
    F.Start = Start;
    F.Threshold = F.ChildThreshold = 0;
    F.ChildTicks = Timed;
    __atomic_store_n(&HD->Used, true, __ATOMIC_RELAXED);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    T.Depth = Floor + 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    captureSpike(T, Floor + 1, End, SpikeFrom::Handler);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    T.Depth = Floor;
  }
  keepHandlerTimeApart(T, Floor, N, Start, End, D.Building);
}

void trampoline(int Sig, siginfo_t *Info, void *Uctx) {
  samplerFaultGuard(Sig); // a sample's unwinding, not the program
  ThreadState &T = threadState;
  volatile char Marker = 0;
  uint32_t N = T.NumSignals;
  // A busy runtime ignores hooks anyway; a dead thread has no stack to mark.
  bool Tracked = N < kMaxSignalNesting &&
                 (T.Status == StatusActive || T.Status == StatusNew);
  uint64_t H = __atomic_load_n(&Handlers[Sig], __ATOMIC_ACQUIRE);
  Delivery D;
  if (Tracked) {
    SignalContext &C = T.Signals[N];
    C.Floor = T.Depth;
    C.Signo = Sig;
    C.Base = uintptr_t(&Marker);
    C.AltLo = C.AltHi = 0;
    stack_t SS;
    // sigaltstack is async-signal-safe; only asked when it can matter.
    if ((H & kOnStackBit) && sigaltstack(nullptr, &SS) == 0 &&
        (SS.ss_flags & SS_ONSTACK)) {
      C.AltLo = uintptr_t(SS.ss_sp);
      C.AltHi = C.AltLo + SS.ss_size;
    }
    handlerBegins(T, N, D);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    T.NumSignals = N + 1;
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (C.AltLo)
      samplerHandlerOnAltStack(T, C.Base);
  }
  uintptr_t Fn = uintptr_t(H & kAddressBits);
  if (H & kSigInfoBit)
    reinterpret_cast<void (*)(int, siginfo_t *, void *)>(Fn)(Sig, Info, Uctx);
  else if (Fn != uintptr_t(SIG_IGN) && Fn != uintptr_t(SIG_DFL))
    reinterpret_cast<sighandler_t>(Fn)(Sig);
  // A handler left by siglongjmp never gets here; signalFloor() cleans up.
  if (Tracked && T.NumSignals > N) {
    if (T.Status == StatusActive || T.Status == StatusNew)
      handlerEnds(T, N, D, Fn);
    T.NumSignals = N;
  }
}

// The trampoline for a handler without SA_SIGINFO.
void plainTrampoline(int Sig) { trampoline(Sig, nullptr, nullptr); }

bool isTrampoline(const struct sigaction &A) {
  return (A.sa_flags & SA_SIGINFO) ? A.sa_sigaction == trampoline
                                   : A.sa_handler == plainTrampoline;
}

// The program's view of the kernel's action K, whose handler word was H: its
// own handler where we installed the trampoline; flags, mask and restorer as
// the kernel has them, so what glibc changed in place (siginterrupt) shows.
void programAction(uint64_t H, const struct sigaction &K,
                   struct sigaction &Out) {
  Out = K;
  if (crashHandlerIs(K) || samplerHandlerIs(K)) { // ours: the default action
    Out.sa_handler = SIG_DFL;
    Out.sa_flags = 0;
    sigemptyset(&Out.sa_mask);
    return;
  }
  if (!isTrampoline(K))
    return;
  if (H & kSigInfoBit)
    Out.sa_sigaction =
        reinterpret_cast<void (*)(int, siginfo_t *, void *)>(H & kAddressBits);
  else
    Out.sa_handler = reinterpret_cast<sighandler_t>(H & kAddressBits);
}

SignalFn RealSignal;

// The C library's signal(); a static program's has no dynamic symbol.
SignalFn realSignal() {
  if (!__atomic_load_n(&RealSignal, __ATOMIC_ACQUIRE)) {
    auto F = reinterpret_cast<SignalFn>(dlsym(RTLD_NEXT, "signal"));
    __atomic_store_n(&RealSignal, F ? F : staticSignal(), __ATOMIC_RELEASE);
  }
  return RealSignal;
}

} // namespace

// Start-up, fork and the interposed calls below: built for size.
SPIKETRAP_MINSIZE_BEGIN
void signalInit() {
  realSignal();
  setBeforeReport(nameSignalHandlers);
}

void signalAfterForkChild() { TableLock.reset(); }

bool signalHandlerDesc(const spiketrap_desc *D) {
  auto P = reinterpret_cast<uintptr_t>(D);
  return P >= uintptr_t(&HandlerDescs[0]) &&
         P < uintptr_t(&HandlerDescs[kMaxHandlers]);
}

namespace {
void copyCut(char *Out, size_t Size, const char *In) {
  size_t N = strnlen(In, Size - 1);
  memcpy(Out, In, N);
  Out[N] = 0;
}
} // namespace

void nameSignalHandlers() {
  bool Any = false;
  for (HandlerDesc &E : HandlerDescs)
    Any |= __atomic_load_n(&E.Used, __ATOMIC_RELAXED) && !E.File[0];
  if (!Any)
    return;
  // A handler adaptive mode switched off is known by its descriptor (its
  // file and line); any other by its symbol and object file.
  Array<const spiketrap_desc *> Known(numSkippable() + 1);
  size_t NK = 0;
  for (uint32_t I = 0; Known && I < numSkippable(); ++I)
    Known[NK++] = skippableAt(I);
  Symbolizer S;
  if (!S.init(Known ? Known.begin() : nullptr, NK, kMaxHandlers))
    return;
  for (HandlerDesc &E : HandlerDescs) {
    uintptr_t Fn = __atomic_load_n(&E.Fn, __ATOMIC_ACQUIRE);
    if (!Fn || !__atomic_load_n(&E.Used, __ATOMIC_RELAXED) || E.File[0])
      continue;
    const spiketrap_desc *D = S.describe(Fn);
    if (!D)
      continue;
    const char *File = __spiketrap_desc_file(D);
    copyCut(E.Name, sizeof(E.Name), __spiketrap_desc_name(D));
    copyCut(E.File, sizeof(E.File), File && *File ? File : "?");
    E.D.line = __spiketrap_desc_line(D);
    E.D.desc.flags |= D->flags & SPIKETRAP_DESC_SYMBOL;
  }
}

SPIKETRAP_MINSIZE_END

} // namespace __spiketrap

using namespace __spiketrap;

SPIKETRAP_MINSIZE_BEGIN

// Interposes libc's sigaction for the program: handlers are installed behind
// the trampoline; queries see the program's own handlers, with the flags,
// mask and restorer the kernel has (as glibc reports them).
SPIKETRAP_INTERPOSE int sigaction(int Sig, const struct sigaction *Act,
                                  struct sigaction *Old) {
  bool Valid = Sig > 0 && Sig < NSIG;
  bool Wrap = Act && Valid && Act->sa_handler != SIG_IGN &&
              Act->sa_handler != SIG_DFL;
  if (Act && Valid) // the program's action on the sampling signal is its own
    samplerSignalTaken(Sig);
  // glibc fills only the kernel's part of a mask: the rest of what we copy
  // out is zero, not our stack.
  struct sigaction Prev = {}, Ours;
  // The trampoline of the handler's own kind: the kernel's flags stay the
  // program's (they outlive the handler with SA_RESETHAND).
  if (Wrap) {
    Ours = *Act;
    if (Act->sa_flags & SA_SIGINFO)
      Ours.sa_sigaction = trampoline;
    else
      Ours.sa_handler = plainTrampoline;
  }
  TableGuard Guard;
  uint64_t Saved = Valid ? Handlers[Sig] : 0;
  // Before the install: a signal may come at once.
  if (Wrap) {
    makeHandlerDesc(pack(*Act) & kAddressBits);
    __atomic_store_n(&Handlers[Sig], pack(*Act), __ATOMIC_RELEASE);
  }
  int R = __sigaction(Sig, Wrap ? &Ours : Act, &Prev);
  if (R != 0) {
    if (Wrap)
      __atomic_store_n(&Handlers[Sig], Saved, __ATOMIC_RELEASE);
    return R;
  }
  if (Old)
    programAction(Saved, Prev, *Old);
  return R;
}

// glibc's signal() calls its internal sigaction, not ours, and keeps state
// of its own (siginterrupt's set): call it, with the trampoline as the
// handler, so its semantics (SA_RESTART unless siginterrupt said otherwise,
// the signal blocked while it runs, errors) are glibc's.
SPIKETRAP_INTERPOSE sighandler_t signal(int Sig, sighandler_t Handler) {
  SignalFn Real = realSignal();
  bool Valid = Sig > 0 && Sig < NSIG;
  bool Wrap = Valid && Handler != SIG_IGN && Handler != SIG_DFL &&
              Handler != SIG_ERR;
  if (Valid && Handler != SIG_ERR)
    samplerSignalTaken(Sig);
  TableGuard Guard;
  uint64_t Saved = Valid ? Handlers[Sig] : 0;
  if (Wrap) {
    makeHandlerDesc(uint64_t(Handler) & kAddressBits);
    __atomic_store_n(&Handlers[Sig], uint64_t(Handler) & kAddressBits,
                     __ATOMIC_RELEASE);
  }
  sighandler_t Old = Real(Sig, Wrap ? plainTrampoline : Handler);
  if (Old == SIG_ERR) {
    if (Wrap)
      __atomic_store_n(&Handlers[Sig], Saved, __ATOMIC_RELEASE);
    return SIG_ERR;
  }
  if (Old == plainTrampoline ||
      Old == reinterpret_cast<sighandler_t>(trampoline))
    Old = reinterpret_cast<sighandler_t>(Saved & kAddressBits);
  else if (crashHandlerIs(Old) || samplerHandlerIs(Old))
    Old = SIG_DFL;
  return Old;
}
SPIKETRAP_MINSIZE_END
