//===- spiketrap_report_signal.cpp - A report on a signal -----------------===//
//
// report_signal=USR1 writes the report whenever SIGUSR1 arrives, for
// programs that never exit. Formatting is not async-signal-safe, so the
// handler only posts a semaphore; a background thread writes the report.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_report_signal.h"
#include "spiketrap_background.h"
#include "spiketrap_flags.h"
#include "spiketrap_format.h"
#include "spiketrap_report.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

namespace __spiketrap {

namespace {

sem_t Pending;
bool Running; // the thread was started

void onSignal(int) {
  int Saved = errno; // the interrupted code may be reading errno
  sem_post(&Pending);
  errno = Saved;
}

} // namespace

bool reportSignalHandlerIs(uintptr_t Fn) { return Fn == uintptr_t(onSignal); }

namespace {

void reportLoop(void *) {
  for (;;) {
    if (sem_wait(&Pending) == 0)
      writeReport();
  }
}

// The signals a report may be asked on: the user-defined ones, HUP, and the
// real-time ones glibc leaves to programs (SIGRTMIN..SIGRTMAX; 32 and 33 are
// its own). Never INT, TERM, QUIT and the like: they must go on stopping
// the program. "USR1", "SIGUSR1" or the number; 0 for anything else.
int parseSignal(const char *S) {
  static const struct {
    const char *Name;
    int Sig;
  } Names[] = {{"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"HUP", SIGHUP}};
  if (strncasecmp(S, "SIG", 3) == 0)
    S += 3;
  for (const auto &N : Names)
    if (strcasecmp(S, N.Name) == 0)
      return N.Sig;
  char *End;
  long V = strtol(S, &End, 10);
  if (*End || End == S)
    return 0;
  for (const auto &N : Names)
    if (V == N.Sig)
      return N.Sig;
  return V >= SIGRTMIN && V <= SIGRTMAX ? int(V) : 0;
}

bool startThread() {
  Running = sem_init(&Pending, 0, 0) == 0 &&
            startBackgroundThread(reportLoop, nullptr);
  if (!Running)
    logLine("report_signal: cannot start its thread; no report on signal");
  return Running;
}

} // namespace

void reportSignalAfterForkChild() {
  if (Running)
    startThread();
}

void reportSignalStart() {
  if (!flags.enabled || strcmp(flags.report_signal, "none") == 0)
    return;
  int Sig = parseSignal(flags.report_signal);
  // A bad value keeps the default, none, and says so; the JSON report's
  // options say what is in effect.
  if (!Sig) {
    logLine("SPIKETRAP_OPTIONS: report_signal={}: expected USR1, USR2, HUP "
            "(or their numbers) or a real-time signal {} to {}; keeping the "
            "default none",
            flags.report_signal, SIGRTMIN, SIGRTMAX);
    flags.report_signal = "none";
    return;
  }
  if (!startThread()) {
    flags.report_signal = "none";
    return;
  }
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_handler = onSignal;
  A.sa_flags = SA_RESTART;
  sigemptyset(&A.sa_mask);
  if (sigaction(Sig, &A, nullptr) != 0)
    logLine("report_signal: cannot handle signal {}: {}; no report on signal",
            Sig, strerror(errno));
}

} // namespace __spiketrap
