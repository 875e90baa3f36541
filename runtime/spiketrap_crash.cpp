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
#include "spiketrap_report.h"
#include "spiketrap_thread.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" int __sigaction(int, const struct sigaction *, struct sigaction *);

namespace __spiketrap {

int crashSignal; // others wait for the first one's report

namespace {

constexpr int kFatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

const char *fatalName(int Sig) {
  switch (Sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGBUS: return "SIGBUS";
  case SIGILL: return "SIGILL";
  case SIGFPE: return "SIGFPE";
  default: return "SIGABRT";
  }
}

void crashHandler(int Sig, siginfo_t *, void *) {
  int Errno = errno;
  int Expected = 0;
  if (!__atomic_compare_exchange_n(&crashSignal, &Expected, Sig, false,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    // Another thread is writing the report: the process dies when it ends.
    for (;;)
      pause();
  }
  {
    RecursionGuard Guard; // the handler's own calls are not timed
    reportAllocForCrash();
    logLine("fatal signal {} ({}) on thread {}; the reports follow, with the "
            "calls open on every thread",
            Sig, fatalName(Sig), long(syscall(SYS_gettid)));
    writeReport(/*Crash=*/true);
  }
  errno = Errno;
  // SA_RESETHAND made the action the default again: the signal, blocked
  // while we run, kills the process as soon as we return (and a fault
  // happens again where it happened).
  raise(Sig);
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
  Ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigfillset(&Ours.sa_mask); // nothing else runs on this thread meanwhile
  for (int Sig : kFatal) {
    struct sigaction Old;
    if (__sigaction(Sig, nullptr, &Old) == 0 && !(Old.sa_flags & SA_SIGINFO) &&
        Old.sa_handler == SIG_DFL)
      __sigaction(Sig, &Ours, nullptr);
  }
}

} // namespace __spiketrap
