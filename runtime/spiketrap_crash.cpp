//===- spiketrap_crash.cpp - Reports from a fatal signal ------------------===//
//
// A program that crashes never reaches the report at exit, and the spikes
// and open calls just before a crash are what its developer wants to see.
// Where the program leaves a fatal signal at its default action, a handler
// writes the reports (with every thread's open calls: the crashing thread's
// say where it was) and then lets the signal kill the process as it would
// have. A handler the program installs replaces ours: its own come first.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_crash.h"
#include "spiketrap_alloc.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"
#include "spiketrap_report.h"
#include "spiketrap_sampler.h"
#include "spiketrap_thread.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

namespace __spiketrap {

int crashSignal; // others wait for the first one's report

namespace {

constexpr int kFatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
long CrashingTid; // the thread writing the report of crashSignal

const char *fatalName(int Sig) {
  switch (Sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGBUS: return "SIGBUS";
  case SIGILL: return "SIGILL";
  case SIGFPE: return "SIGFPE";
  default: return "SIGABRT";
  }
}

// The report needs far more stack than a program's alternate signal stack
// may have (SIGSTKSZ is 8 KiB; the report ~14 KiB): it runs on a stack of
// its own, mapped when needed, with a guard page below. Only the first
// crashing thread gets here, so one of each is enough.
constexpr size_t kReportStack = 512 << 10;
ucontext_t HandlerContext, ReportContext;

void writeCrashReport() {
  RecursionGuard Guard; // the handler's own calls are not timed
  reportAllocForCrash();
  logLine("fatal signal {} ({}) on thread {}; the reports follow, with the "
          "calls open on every thread",
          crashSignal, fatalName(crashSignal), CrashingTid);
  writeReport(/*Crash=*/true);
}

void writeCrashReportOnOwnStack() {
  void *Stack = mapGuardedStack(kReportStack);
  if (!Stack || getcontext(&ReportContext) != 0) {
    writeCrashReport(); // on the handler's stack: better than none
    return;
  }
  ReportContext.uc_stack.ss_sp = Stack;
  ReportContext.uc_stack.ss_size = kReportStack;
  ReportContext.uc_link = &HandlerContext; // back here when it returns
  makecontext(&ReportContext, writeCrashReport, 0);
  if (swapcontext(&HandlerContext, &ReportContext) != 0)
    writeCrashReport();
  // Kept mapped: the process is about to die.
}

// The action is ours until the report is written (no SA_RESETHAND: a second
// thread's crash would kill the process half-way through it); now the
// default kills the process with the signal, blocked while we run, as soon
// as we return, and a fault happens again where it happened: a core dump
// shows the crash site.
void dieOf(int Sig) {
  struct sigaction Default = {};
  Default.sa_handler = SIG_DFL;
  __sigaction(Sig, &Default, nullptr);
  raise(Sig);
}

void crashHandler(int Sig, siginfo_t *, void *) {
  samplerFaultGuard(Sig); // a sample's unwinding, not the program
  int Errno = errno;
  long Tid = long(threadId());
  int Expected = 0;
  if (!__atomic_compare_exchange_n(&crashSignal, &Expected, Sig, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    // Our own report died (abort() in it): die of that.
    if (__atomic_load_n(&CrashingTid, __ATOMIC_ACQUIRE) == Tid)
      return dieOf(Sig);
    // Another thread is writing the report: the process dies when it ends.
    for (;;)
      pause();
  }
  __atomic_store_n(&CrashingTid, Tid, __ATOMIC_RELEASE);
  writeCrashReportOnOwnStack();
  errno = Errno;
  dieOf(Sig);
}

// A stack overflow's SIGSEGV can be delivered only on an alternate signal
// stack: without one the kernel kills the process, report and all. The
// main thread gets one when it has none (the handler needs little of it:
// the report runs on its own stack). A program's own sigaltstack replaces
// it. Other threads have none of ours.
constexpr size_t kAltStack = 64 << 10;

void giveMainThreadAltStack() {
  stack_t Old;
  if (sigaltstack(nullptr, &Old) != 0 || !(Old.ss_flags & SS_DISABLE))
    return;
  void *Stack = mapGuardedStack(kAltStack);
  if (!Stack)
    return;
  stack_t Alt = {};
  Alt.ss_sp = Stack;
  Alt.ss_size = kAltStack;
  if (sigaltstack(&Alt, nullptr) != 0)
    unmapGuardedStack(Stack, kAltStack);
}

} // namespace

bool crashHandlerIs(const struct sigaction &A) {
  return (A.sa_flags & SA_SIGINFO) && A.sa_sigaction == crashHandler;
}

bool crashHandlerIs(sighandler_t H) {
  return reinterpret_cast<void *>(H) == reinterpret_cast<void *>(crashHandler);
}

void crashInit() {
  if (!flags.enabled || !flags.crash_report)
    return;
  struct sigaction Ours = {};
  Ours.sa_sigaction = crashHandler;
  Ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigfillset(&Ours.sa_mask); // nothing else runs on this thread meanwhile
  for (int Sig : kFatal) {
    struct sigaction Old;
    if (__sigaction(Sig, nullptr, &Old) == 0 &&
        !(Old.sa_flags & SA_SIGINFO) && Old.sa_handler == SIG_DFL &&
        __sigaction(Sig, &Ours, nullptr) == 0 && Sig == SIGSEGV)
      giveMainThreadAltStack(); // crashInit runs on the main thread
  }
}

} // namespace __spiketrap
