//===- spiketrap_report.cpp - Writing the reports -------------------------===//
//
// At exit, on demand (spiketrap_report()) or on a signal: reads the spike
// records once and writes each format the options ask for (text, JSON, skip
// list) to its own destination. Runs outside the hooks, so it may allocate
// and format.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_report.h"
#include "spiketrap_clock.h"
#include "spiketrap_crash_flag.h"
#include "spiketrap_flags.h"
#include "spiketrap_livelog.h"
#include "spiketrap_platform.h"
#include "spiketrap_registry.h"
#include "spiketrap_report_formats.h"
#include "spiketrap_sandbox.h"
#include "spiketrap_spikes.h"
#include "spiketrap_thread.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

// Writes one format to its destination. Whatever cannot be written to its
// file goes to stderr, saying why, so nothing is lost; two options naming the
// same file would overwrite each other, so the second goes to stderr.
void writeOutput(const Output &O, const Buffer &B, Buffer &Written) {
  if (strcmp(*O.Path, "stderr") != 0) {
    Buffer Path;
    expandPath(Path, *O.Path);
    int Err = 0;
    const char *Why = nullptr;
    int Fd = namedDescriptor(Path.data());
    if (Fd >= 0) {
      if (!descriptorOpen(Fd))
        Why = "no such descriptor is open";
      else if (!writeAll(Fd, B.data(), B.size()))
        Why = "writing it failed", Err = errno;
      if (!Why)
        return;
    }
    for (size_t I = 0; I < Written.size() && !Why;
         I += strlen(Written.data() + I) + 1)
      if (strcmp(Written.data() + I, Path.data()) == 0)
        Why = "another report option already wrote it";
    bool File = false;
    if (!Why &&
        !(Why = writeWholeFile(Path.data(), B.data(), B.size(), Err, File))) {
      if (File)
        Written.append(Path.data(), Path.data() + Path.size());
      return;
    }
    logLine("{}: cannot write '{}': {}{}{}; writing it to stderr", O.Option,
            Path.data(), Why, *Why && Err ? ": " : "",
            Err ? strerror(Err) : "");
  }
  // A program that closed descriptor 2 and opened a file of its own there
  // gets nothing in it: the report goes nowhere.
  if (!stderrIsOurs())
    return;
  if (!writeAll(2, B.data(), B.size()))
    logLine("{}: writing to stderr failed: {}", O.Option, strerror(errno));
}

// Quiet like a sanitizer: a default run with nothing a user must know (no
// spike, nothing dropped, no call untimed past the depth) prints nothing.
// A file asked for by name is still written; verbosity=1 prints anyway.
bool nothingToSay(const Output &O) {
  if (O.Write != writeText || strcmp(*O.Path, "stderr") != 0 ||
      flags.verbosity >= 1 || crashing())
    return false;
  SpikeTotals S = spikeTotals();
  return S.Recorded == 0 && S.Hangs == 0 && S.Dropped == 0 &&
         threadTotals().Overflows == 0;
}

} // namespace

namespace {
void (*BeforeReport)();
} // namespace

void setBeforeReport(void (*Hook)()) {
  __atomic_store_n(&BeforeReport, Hook, __ATOMIC_RELEASE);
}

void writeReport(bool Crash) {
  // Under a seccomp filter any call of ours may be the one it kills: say
  // nothing rather than end the program with SIGSYS.
  if (sandboxCheck())
    return;
  RecursionGuard Guard;
  // The live log's lines about the last spikes come before the report.
  if (!Crash)
    liveLogFlush();
  if (!Crash)
    pthread_mutex_lock(&ReportLock);
  else if (pthread_mutex_trylock(&ReportLock) != 0) {
    logLine("the crash came while a report was being written; no other");
    return;
  }
  uint64_t Begin = monotonicNs();
  ++ReportNumber;
  if (void (*Hook)() = __atomic_load_n(&BeforeReport, __ATOMIC_ACQUIRE);
      Hook && !Crash) // it reads object files: not in a crash
    Hook();
  SpikeReader Reading; // the model points into the arena
  ReportModel M;
  if (!M.build()) {
    pthread_mutex_unlock(&ReportLock);
    return;
  }
  Buffer Written; // the files written so far, each ending in '\0'
  FileSizeSignalHeld Held;
  for (const Output &O : Outputs) {
    if (strcmp(*O.Path, "none") == 0 || nothingToSay(O))
      continue;
    Buffer B;
    O.Write(B, M);
    writeOutput(O, B, Written);
  }
  if (flags.verbosity >= 1)
    logLine("report of {} spikes written in {} ms", M.size(),
            (monotonicNs() - Begin) / 1000000);
  pthread_mutex_unlock(&ReportLock);
}

void reportAfterForkChild() { pthread_mutex_init(&ReportLock, nullptr); }

} // namespace __spiketrap

SPIKETRAP_EXPORT void spiketrap_report() { __spiketrap::writeReport(); }
