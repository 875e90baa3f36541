//===- spiketrap_files_win.cpp - Reports written whole, on Windows --------===//
//
// The Files section of spiketrap_platform.h on Windows: a report goes to a
// new file (CREATE_NEW: never through what is at the path) in the same
// directory, moved into place once whole (MoveFileEx replaces the old one),
// so no reader sees half a report. A reparse point at the path (a symbolic
// link, a junction) is refused; NUL and CON are written in place.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_format.h"
#include "spiketrap_platform.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <string.h>
#include <windows.h>

namespace __spiketrap {

// The spellings a Linux user writes for the standard streams, kept so a
// report option means the same on both.
int namedDescriptor(const char *Path) {
  if (strcmp(Path, "/dev/stdout") == 0)
    return 1;
  if (strcmp(Path, "/dev/stderr") == 0)
    return 2;
  return -1;
}

bool descriptorOpen(int Fd) { return _get_osfhandle(Fd) != -1; }

void flushProgramOutput() { fflush(nullptr); }

int openForReading(const char *Path) {
  return _open(Path, _O_RDONLY | _O_BINARY | _O_NOINHERIT);
}

namespace {
bool writeAll(HANDLE H, const char *Data, size_t Size) {
  while (Size) {
    DWORD Chunk = Size > (1u << 30) ? (1u << 30) : DWORD(Size), Done = 0;
    if (!WriteFile(H, Data, Chunk, &Done, nullptr) || !Done)
      return false;
    Data += Done;
    Size -= Done;
  }
  return true;
}

bool isDeviceName(const char *Path) {
  return _stricmp(Path, "NUL") == 0 || _stricmp(Path, "CON") == 0;
}
} // namespace

const char *writeWholeFile(const char *Path, const char *Data, size_t Size,
                           int &Err, bool &File) {
  Err = 0;
  DWORD Attr = GetFileAttributesA(Path);
  File = !isDeviceName(Path) &&
         (Attr == INVALID_FILE_ATTRIBUTES ||
          !(Attr & (FILE_ATTRIBUTE_DIRECTORY | FILE_ATTRIBUTE_REPARSE_POINT)));
  if (isDeviceName(Path)) {
    HANDLE H = CreateFileA(Path, GENERIC_WRITE, FILE_SHARE_WRITE, nullptr,
                           OPEN_EXISTING, 0, nullptr);
    if (H == INVALID_HANDLE_VALUE)
      return "cannot open it";
    bool Ok = writeAll(H, Data, Size);
    CloseHandle(H);
    return Ok ? nullptr : "writing it failed";
  }
  if (!File)
    return Attr & FILE_ATTRIBUTE_REPARSE_POINT ? "it is a symbolic link"
                                               : "it is not a regular file";
  // A name of our own beside it: the path, the process and a counter.
  static long Counter;
  Buffer Tmp;
  Tmp.format("{}.tmp.{}.{}", Path, GetCurrentProcessId(),
             __atomic_add_fetch(&Counter, 1, __ATOMIC_RELAXED));
  Tmp.push_back('\0');
  HANDLE H = CreateFileA(Tmp.data(), GENERIC_WRITE, 0, nullptr, CREATE_NEW,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
  if (H == INVALID_HANDLE_VALUE) {
    Err = GetLastError() == ERROR_PATH_NOT_FOUND ? ENOENT : EACCES;
    return "";
  }
  bool Ok = writeAll(H, Data, Size);
  Ok = CloseHandle(H) && Ok;
  if (Ok && MoveFileExA(Tmp.data(), Path, MOVEFILE_REPLACE_EXISTING))
    return nullptr;
  DeleteFileA(Tmp.data());
  return Ok ? "cannot rename it into place" : "writing it failed";
}

} // namespace __spiketrap
