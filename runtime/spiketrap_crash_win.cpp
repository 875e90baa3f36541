//===- spiketrap_crash_win.cpp - Reports from a fatal exception -----------===//
//
// Windows's spiketrap_crash.cpp: an exception no handler of the program
// takes reaches the process's top-level filter, which writes the reports
// (with every thread's open calls) and then lets the exception go on as it
// would have (the previous filter, else Windows's own: Error Reporting, or
// Wine's debugger). A filter the program sets later replaces ours. A stack
// overflow runs the filter in the room SetThreadStackGuarantee keeps below
// the main thread's stack: the report needs about 14 KiB.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_crash.h"
#include "spiketrap_alloc.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_platform.h"
#include "spiketrap_report.h"
#include "spiketrap_thread.h"

#include <signal.h>
#include <windows.h>

namespace __spiketrap {

int crashSignal; // others wait for the first one's report

namespace {

LPTOP_LEVEL_EXCEPTION_FILTER Previous;
long CrashingTid; // the thread writing the report
constexpr ULONG kGuarantee = 64 << 10;

const char *exceptionName(DWORD Code) {
  switch (Code) {
  case EXCEPTION_ACCESS_VIOLATION: return "access violation";
  case EXCEPTION_STACK_OVERFLOW: return "stack overflow";
  case EXCEPTION_IN_PAGE_ERROR: return "in-page error";
  case EXCEPTION_ILLEGAL_INSTRUCTION: return "illegal instruction";
  case EXCEPTION_PRIV_INSTRUCTION: return "privileged instruction";
  case EXCEPTION_INT_DIVIDE_BY_ZERO: return "integer divide by zero";
  case EXCEPTION_BREAKPOINT: return "breakpoint";
  default: return "exception";
  }
}

// crashing() reads the flag; the C runtime's number for it, as signal()
// would have raised it.
int signalOf(DWORD Code) {
  switch (Code) {
  case EXCEPTION_ILLEGAL_INSTRUCTION:
  case EXCEPTION_PRIV_INSTRUCTION: return SIGILL;
  case EXCEPTION_INT_DIVIDE_BY_ZERO:
  case EXCEPTION_FLT_DIVIDE_BY_ZERO: return SIGFPE;
  case EXCEPTION_BREAKPOINT: return SIGABRT;
  default: return SIGSEGV;
  }
}

LONG WINAPI crashFilter(EXCEPTION_POINTERS *E) {
  DWORD Code = E->ExceptionRecord->ExceptionCode;
  long Tid = long(threadId());
  int Expected = 0;
  if (!__atomic_compare_exchange_n(&crashSignal, &Expected, signalOf(Code),
                                   false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    // Our own report died: let Windows end the process.
    if (__atomic_load_n(&CrashingTid, __ATOMIC_ACQUIRE) == Tid)
      return EXCEPTION_CONTINUE_SEARCH;
    // Another thread is writing the report: the process ends when it does.
    for (;;)
      Sleep(INFINITE);
  }
  __atomic_store_n(&CrashingTid, Tid, __ATOMIC_RELEASE);
  {
    RecursionGuard Guard; // the filter's own calls are not timed
    reportAllocForCrash();
    logLine("fatal exception 0x{:x} ({}) on thread {}; the reports follow, "
            "with the calls open on every thread",
            uint64_t(Code), exceptionName(Code), Tid);
    writeReport(/*Crash=*/true);
  }
  return Previous ? Previous(E) : EXCEPTION_CONTINUE_SEARCH;
}

} // namespace

bool crashHandlerIs(const struct sigaction &) { return false; }
bool crashHandlerIs(sighandler_t) { return false; }

void crashInit() {
  if (!flags.enabled || !flags.crash_report)
    return;
  Previous = SetUnhandledExceptionFilter(crashFilter);
  ULONG Guarantee = kGuarantee; // crashInit runs on the main thread
  SetThreadStackGuarantee(&Guarantee);
}

} // namespace __spiketrap
