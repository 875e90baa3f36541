//===- spiketrap_run_linux.cpp - Facts about the run, on Linux ------------===//
//
// The Run section of spiketrap_platform.h: whether the process is a
// secure one (AT_SECURE), the program's file (/proc/self/exe), its ELF
// build id and arguments (/proc/self/cmdline), the host's name (uname) and
// random bytes (getrandom).
//
//===----------------------------------------------------------------------===//
#include "spiketrap_format.h"
#include "spiketrap_platform.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
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

// setuid, setgid or file capabilities: the kernel says so to the loader.
bool processPrivileged() { return getauxval(AT_SECURE) != 0; }

void programFile(char *Out, size_t Size) {
  ssize_t N = readlink("/proc/self/exe", Out, Size - 1);
  Out[N > 0 ? N : 0] = '\0';
}

// The main executable's NT_GNU_BUILD_ID note, found through its program
// headers as the kernel gave them (AT_PHDR): no loader lock, no interceptor
// of a sanitizer, nothing that cannot run before constructors.
size_t programBuildId(unsigned char *Out, size_t Max) {
  const auto *Ph = reinterpret_cast<const ElfW(Phdr) *>(getauxval(AT_PHDR));
  size_t N = getauxval(AT_PHNUM);
  if (!Ph)
    return 0;
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
          memcmp(Name, "GNU", 4) == 0 && H->n_descsz <= Max) {
        memcpy(Out, Desc, H->n_descsz);
        return H->n_descsz;
      }
    }
  }
  return 0;
}

void programArguments(Buffer &Out) {
  int Fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return;
  char Chunk[4096];
  ssize_t N;
  while ((N = read(Fd, Chunk, sizeof(Chunk))) > 0)
    Out.append(Chunk, Chunk + N);
  close(Fd);
}

bool hostName(char *Out, size_t Size) {
  utsname U;
  if (uname(&U) != 0)
    return false;
  size_t N = strnlen(U.nodename, sizeof(U.nodename));
  N = N < Size - 1 ? N : Size - 1;
  memcpy(Out, U.nodename, N);
  Out[N] = '\0';
  return true;
}

size_t randomBytes(void *Out, size_t N) {
  size_t Got = 0;
  while (Got < N) {
    ssize_t R =
        getrandom(static_cast<char *>(Out) + Got, N - Got, GRND_NONBLOCK);
    if (R <= 0)
      break;
    Got += size_t(R);
  }
  return Got;
}

void utcCalendar(int64_t Seconds, struct tm &Out) {
  time_t S = time_t(Seconds);
  gmtime_r(&S, &Out);
}

void unsetEnvironmentName(const char *Name) { unsetenv(Name); }

const char *signalName(int Sig) { return sigabbrev_np(Sig); }

} // namespace __spiketrap
