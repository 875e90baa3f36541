//===- spiketrap_report.cpp - Writing the reports -------------------------===//
//
// At exit, on demand (spiketrap_report()) or on a signal: reads the spike
// records once and writes each format the options ask for to its own
// destination. Runs outside the hooks, so it may allocate and format.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_clock.h"
#include "spiketrap_flags.h"
#include "spiketrap_init.h"
#include "spiketrap_livelog.h"
#include "spiketrap_adaptive.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_thread.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

struct Output {
  const char *const *Path; // the option; "none" turns the format off
  void (*Write)(Buffer &, const ReportModel &);
  const char *Option;
};
const Output Outputs[] = {
    {&flags.report, writeText, "report"},
    {&flags.report_json, writeJson, "report_json"},
    {&flags.report_trace, writeTrace, "report_trace"},
    {&flags.report_folded, writeFolded, "report_folded"},
    {&flags.report_html, writeHtml, "report_html"},
    {&flags.suggest_list, writeSuggestList, "suggest_list"},
    {&flags.skip_list, writeSkipList, "skip_list"},
};

unsigned ReportNumber; // for %n: 1 for the first report of the run
// Exit, the API and the signal thread may all want a report at once.
pthread_mutex_t ReportLock = PTHREAD_MUTEX_INITIALIZER;

// Path with %p (pid), %t (start time), %n (report number) and %% expanded.
void expandPath(Buffer &Out, const char *Path) {
  for (const char *P = Path; *P; ++P) {
    if (P[0] != '%' || !P[1]) {
      Out.push_back(*P);
      continue;
    }
    switch (*++P) {
    case 'p':
      Out.format("{}", getpid());
      break;
    case 't':
      formatStartTime(Out, /*Iso=*/false);
      break;
    case 'n':
      Out.format("{}", ReportNumber);
      break;
    default: // %% and unknown patterns stay as they are written
      Out.push_back('%');
      if (*P != '%')
        Out.push_back(*P);
    }
  }
  Out.push_back('\0');
}

// Opens the destination; a path that cannot be written falls back to stderr,
// saying so, so nothing is lost.
int openOutput(const Output &O) {
  if (strcmp(*O.Path, "stderr") == 0)
    return 2;
  Buffer Path;
  expandPath(Path, *O.Path);
  int Fd = open(Path.data(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    logLine("{}: cannot write '{}': {}; writing it to stderr", O.Option,
            Path.data(), strerror(errno));
  return Fd < 0 ? 2 : Fd;
}

} // namespace

void writeReport() {
  RecursionGuard Guard;
  // The live log's lines about the last spikes come before the report.
  liveLogFlush();
  pthread_mutex_lock(&ReportLock);
  uint64_t Begin = monotonicNs();
  ++ReportNumber;
  ReportModel M;
  if (!M.build()) {
    pthread_mutex_unlock(&ReportLock);
    return;
  }
  for (const Output &O : Outputs) {
    if (strcmp(*O.Path, "none") == 0)
      continue;
    Buffer B;
    O.Write(B, M);
    int Fd = openOutput(O);
    if (!writeAll(Fd, B.data(), B.size()))
      logLine("{}: writing failed: {}", O.Option, strerror(errno));
    if (Fd != 2)
      close(Fd);
  }
  if (flags.verbosity >= 1)
    logLine("report of {} spikes written in {} ms", M.size(),
            (monotonicNs() - Begin) / 1000000);
  pthread_mutex_unlock(&ReportLock);
}

} // namespace __spiketrap

SPIKETRAP_EXPORT void spiketrap_report() { __spiketrap::writeReport(); }
