//===- spiketrap_report_run.cpp - Facts about the run, for reports -------===//
//
// The wall-clock start time (reports and file names carry it; the hooks'
// clock only counts from start-up) and the options the run started with.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_report_formats.h"

#include <string.h>
#include <time.h>

namespace __spiketrap {

namespace {
uint64_t StartRealtime;
char Options[4096];
} // namespace

void reportInit(const char *Opts) {
  timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  StartRealtime = uint64_t(T.tv_sec) * 1000000000ull + uint64_t(T.tv_nsec);
  // Too long for the parser too (it says so): keep none rather than half.
  if (Opts && strlen(Opts) < sizeof(Options))
    strcpy(Options, Opts);
}

uint64_t startRealtimeNs() { return StartRealtime; }

const char *optionsText() { return Options; }

void formatStartTime(Buffer &B, bool Iso) {
  time_t S = time_t(StartRealtime / 1000000000ull);
  tm T;
  gmtime_r(&S, &T);
  if (Iso)
    B.format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", T.tm_year + 1900,
             T.tm_mon + 1, T.tm_mday, T.tm_hour, T.tm_min, T.tm_sec,
             StartRealtime / 1000000 % 1000);
  else
    B.format("{:04}{:02}{:02}-{:02}{:02}{:02}", T.tm_year + 1900, T.tm_mon + 1,
             T.tm_mday, T.tm_hour, T.tm_min, T.tm_sec);
}

} // namespace __spiketrap
