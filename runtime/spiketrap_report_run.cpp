//===- spiketrap_report_run.cpp - Facts about the run, for reports -------===//
//
// The wall-clock start time (reports and file names carry it; the hooks'
// clock only counts from start-up), the options the run started with, and
// what tells runs of a fleet apart (docs/fleet.md): host, program, ELF build
// id and a run id. Everything a report reads here is either kept at start-up
// or made with system calls only, as a crash's report runs in a signal
// handler.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_report_formats.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

// The linker's name for this executable's dynamic section (<link.h>); null
// in a static executable that has none.
#pragma weak _DYNAMIC

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

// The main executable's NT_GNU_BUILD_ID note, found through its program
// headers as the kernel gave them (AT_PHDR): no loader lock, no interceptor
// of a sanitizer, nothing that cannot run before constructors.
void findBuildId() {
  const auto *Ph = reinterpret_cast<const ElfW(Phdr) *>(getauxval(AT_PHDR));
  size_t N = getauxval(AT_PHNUM);
  if (!Ph)
    return;
  // A position-independent executable's load address: from PT_PHDR, which
  // a static PIE lacks; its PT_DYNAMIC is then ours (no other object is
  // loaded) and _DYNAMIC says where it is. A static non-PIE has neither.
  uintptr_t Bias = 0;
  bool Found = false;
  for (size_t I = 0; I < N; ++I)
    if (Ph[I].p_type == PT_PHDR) {
      Bias = uintptr_t(Ph) - Ph[I].p_vaddr;
      Found = true;
    }
  for (size_t I = 0; I < N && !Found; ++I)
    if (Ph[I].p_type == PT_DYNAMIC && _DYNAMIC)
      Bias = uintptr_t(_DYNAMIC) - Ph[I].p_vaddr;
  for (size_t I = 0; I < N; ++I) {
    if (Ph[I].p_type != PT_NOTE)
      continue;
    const char *Note = reinterpret_cast<const char *>(Bias + Ph[I].p_vaddr);
    const char *End = Note + Ph[I].p_memsz;
    while (Note + sizeof(ElfW(Nhdr)) <= End) {
      const auto *H = reinterpret_cast<const ElfW(Nhdr) *>(Note);
      const char *Name = Note + sizeof(*H);
      const char *Desc = Name + ((H->n_namesz + 3) & ~3u);
      Note = Desc + ((H->n_descsz + 3) & ~3u);
      if (Note > End)
        break;
      if (H->n_type == NT_GNU_BUILD_ID && H->n_namesz == 4 &&
          memcmp(Name, "GNU", 4) == 0 && H->n_descsz <= 64) {
        toHex(BuildId, reinterpret_cast<const unsigned char *>(Desc),
              H->n_descsz);
        return;
      }
    }
  }
}
} // namespace

void reportInit(const char *Opts) {
  timespec T;
  clock_gettime(CLOCK_REALTIME, &T);
  StartRealtime = uint64_t(T.tv_sec) * 1000000000ull + uint64_t(T.tv_nsec);
  // Too long for the parser too (it says so): keep none rather than half.
  if (Opts && strlen(Opts) < sizeof(Options))
    strcpy(Options, Opts);
  ssize_t N = readlink("/proc/self/exe", Program, sizeof(Program) - 1);
  Program[N > 0 ? N : 0] = '\0';
  findBuildId();
}

const char *programPath() { return Program; }

const char *buildId() { return BuildId; }

void formatHost(Buffer &B) {
  utsname U;
  if (uname(&U) == 0)
    B.format("{}", U.nodename);
}

const char *runId() {
  // Every report of one process carries the same id (a later one holds what
  // an earlier one did); a forked child is a run of its own.
  pid_t Pid = getpid();
  if (RunIdPid != Pid) {
    unsigned char R[16] = {};
    size_t Got = 0;
    while (Got < sizeof(R)) {
      ssize_t N = getrandom(R + Got, sizeof(R) - Got, GRND_NONBLOCK);
      if (N <= 0)
        break;
      Got += size_t(N);
    }
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
