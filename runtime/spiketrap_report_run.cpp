//===- spiketrap_report_run.cpp - Facts about the run, for reports --------===//
//
// The wall-clock start time (reports and file names carry it; the hooks'
// clock only counts from start-up), the options the run started with, and
// what tells runs of a fleet apart (docs/fleet.md): host, program, build
// id and a run id (the OS's facts: the Run section of spiketrap_platform.h).
// Everything a report reads here is either kept at start-up or made with
// system calls only, as a crash's report runs in a signal handler.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_platform.h"
#include "spiketrap_report_formats.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

namespace __spiketrap {

namespace {
uint64_t StartRealtime;
char Options[4096];
char Program[4096];       // /proc/self/exe at start-up; "" if unreadable
char BuildId[2 * 64 + 1]; // hex; "" when the executable has none
char RunId[2 * 16 + 1];   // hex, made by the first report of a process
pid_t RunIdPid;           // the process RunId belongs to (fork: a new run)

constexpr char kHex[] = "0123456789abcdef";

void toHex(char *Out, const unsigned char *P, size_t N) {
  for (size_t I = 0; I < N; ++I) {
    Out[2 * I] = kHex[P[I] >> 4];
    Out[2 * I + 1] = kHex[P[I] & 15];
  }
  Out[2 * N] = '\0';
}

} // namespace

void reportInit(const char *Opts) {
  timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  StartRealtime = uint64_t(T.tv_sec) * 1000000000ull + uint64_t(T.tv_nsec);
  // Too long for the parser too (it says so): keep none rather than half.
  if (Opts && strlen(Opts) < sizeof(Options))
    strcpy(Options, Opts);
  programFile(Program, sizeof(Program));
  unsigned char Id[64];
  toHex(BuildId, Id, programBuildId(Id, sizeof(Id)));
}

const char *programPath() { return Program; }

const char *buildId() { return BuildId; }

void formatHost(Buffer &B) {
  char Name[256];
  if (hostName(Name, sizeof(Name)))
    B.format("{}", Name);
}

const char *runId() {
  // Every report of one process carries the same id (a later one holds what
  // an earlier one did); a forked child is a run of its own.
  pid_t Pid = getpid();
  if (RunIdPid != Pid) {
    unsigned char R[16] = {};
    size_t Got = randomBytes(R, sizeof(R));
    if (Got < sizeof(R)) { // no entropy yet: still unique enough per host
      uint64_t Mix[2] = {StartRealtime, uint64_t(Pid) << 32 ^ uint64_t(Pid)};
      for (size_t I = Got; I < sizeof(R); ++I)
        R[I] ^= ((const unsigned char *)Mix)[I];
    }
    toHex(RunId, R, sizeof(R));
    RunIdPid = Pid;
  }
  return RunId;
}

uint64_t startRealtimeNs() { return StartRealtime; }

const char *optionsText() { return Options; }

void formatStartTime(Buffer &B, bool Iso) {
  tm T;
  utcCalendar(int64_t(StartRealtime / 1000000000ull), T);
  if (Iso)
    B.format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", T.tm_year + 1900,
             T.tm_mon + 1, T.tm_mday, T.tm_hour, T.tm_min, T.tm_sec,
             StartRealtime / 1000000 % 1000);
  else
    B.format("{:04}{:02}{:02}-{:02}{:02}{:02}", T.tm_year + 1900, T.tm_mon + 1,
             T.tm_mday, T.tm_hour, T.tm_min, T.tm_sec);
}

} // namespace __spiketrap
