//===- spiketrap_run_win.cpp - Facts about the run, on Windows ------------===//
//
// The Run section of spiketrap_platform.h on Windows: the program's file
// (GetModuleFileName), its arguments (the C runtime's __argv), the host's
// name (GetComputerName), random bytes (rand_s: RtlGenRandom). No process
// runs with privileges its user lacks (no setuid): the environment is read.
//
//===----------------------------------------------------------------------===//
#define _CRT_RAND_S
#include "spiketrap_format.h"
#include "spiketrap_platform.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <windows.h>

namespace __spiketrap {

bool processPrivileged() { return false; }

void programFile(char *Out, size_t Size) {
  DWORD N = GetModuleFileNameA(nullptr, Out, DWORD(Size));
  if (N == 0 || N >= Size)
    Out[0] = 0;
}

// A PE file's CodeView record names its PDB by GUID and age; lld writes one
// with --build-id (or /Brepro), which mingw links do not ask for by default.
size_t programBuildId(unsigned char *, size_t) { return 0; }

void programArguments(Buffer &Out) {
  for (int I = 0; I < __argc && __argv[I]; ++I)
    Out.append(__argv[I], __argv[I] + strlen(__argv[I]) + 1);
}

bool hostName(char *Out, size_t Size) {
  DWORD N = DWORD(Size);
  return GetComputerNameA(Out, &N) != 0;
}

size_t randomBytes(void *Out, size_t N) {
  size_t Got = 0;
  unsigned R;
  while (Got < N && rand_s(&R) == 0) {
    size_t Take = N - Got < sizeof(R) ? N - Got : sizeof(R);
    memcpy(static_cast<char *>(Out) + Got, &R, Take);
    Got += Take;
  }
  return Got;
}

void utcCalendar(int64_t Seconds, struct tm &Out) {
  time_t S = time_t(Seconds);
  gmtime_s(&Out, &S);
}

void unsetEnvironmentName(const char *Name) { _putenv_s(Name, ""); }

// The C runtime's signals: raise() and abort() deliver them.
const char *signalName(int Sig) {
  switch (Sig) {
  case SIGINT: return "INT";
  case SIGILL: return "ILL";
  case SIGFPE: return "FPE";
  case SIGSEGV: return "SEGV";
  case SIGTERM: return "TERM";
  case SIGABRT: return "ABRT";
  }
  return nullptr;
}

} // namespace __spiketrap
