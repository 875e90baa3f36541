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
#include "spiketrap_init.h"

#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

namespace __spiketrap {

namespace {

sem_t Pending;

void onSignal(int) {
  int Saved = errno; // the interrupted code may be reading errno
  sem_post(&Pending);
  errno = Saved;
}

void reportLoop(void *) {
  for (;;) {
    if (sem_wait(&Pending) == 0)
      writeReport();
  }
}

// "USR1", "SIGUSR1" or a number; 0 for anything else.
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
  // Signals whose default is to stop or kill the program cannot be asked
  // to write a report instead.
  if (*End || End == S || V < 1 || V > SIGRTMAX || V == SIGKILL ||
      V == SIGSTOP || V == SIGSEGV || V == SIGBUS || V == SIGFPE ||
      V == SIGILL || V == SIGABRT || V == SIGTRAP)
    return 0;
  return int(V);
}

} // namespace

void reportSignalStart() {
  if (!flags.enabled || strcmp(flags.report_signal, "none") == 0)
    return;
  int Sig = parseSignal(flags.report_signal);
  // A bad value keeps the default, none, and says so.
  if (!Sig) {
    logLine("SPIKETRAP_OPTIONS: report_signal={}: expected USR1, USR2, HUP "
            "or a signal number; keeping the default none",
            flags.report_signal);
    return;
  }
  if (sem_init(&Pending, 0, 0) != 0 ||
      !startBackgroundThread(reportLoop, nullptr)) {
    logLine("report_signal: cannot start its thread; no report on signal");
    return;
  }
  struct sigaction A;
  memset(&A, 0, sizeof(A));
  A.sa_handler = onSignal;
  A.sa_flags = SA_RESTART;
  sigemptyset(&A.sa_mask);
  sigaction(Sig, &A, nullptr);
}

} // namespace __spiketrap
