//===- spiketrap_files_linux.cpp - Report files, on Linux -----------------===//
//
// The Files section of spiketrap_platform.h: the paths that name a
// descriptor, and a report file written whole without trusting what is at
// its path (issue 13): O_NOFOLLOW, O_EXCL, rename.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_format.h"
#include "spiketrap_platform.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace __spiketrap {

// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: symbolic links the
// report does not follow (it writes to the descriptor, as a shell's >&N
// would).
int namedDescriptor(const char *Path) {
  if (strcmp(Path, "/dev/stdout") == 0)
    return 1;
  if (strcmp(Path, "/dev/stderr") == 0)
    return 2;
  static const char *const Dirs[] = {"/dev/fd/", "/proc/self/fd/"};
  const char *N = nullptr;
  for (const char *Dir : Dirs)
    if (strncmp(Path, Dir, strlen(Dir)) == 0)
      N = Path + strlen(Dir);
  if (!N || !*N)
    return -1;
  long Fd = 0;
  for (; *N; ++N) {
    if (*N < '0' || *N > '9' || Fd > 1000000000)
      return -1;
    Fd = Fd * 10 + (*N - '0');
  }
  return int(Fd);
}

bool descriptorOpen(int Fd) { return fcntl(Fd, F_GETFD) >= 0; }

// glibc's stderr is unbuffered; its stdout is flushed after the atexit
// handlers, as it always was with the report.
void flushProgramOutput() {}

namespace {
// Writes to a character device (/dev/null, a terminal) in place: it cannot
// be renamed over. Opened without following a symlink, without blocking
// (a terminal line may wait for a carrier), checked to be one after opening.
const char *writeDevice(const char *Path, const char *Data, size_t Size,
                        int &Err) {
  int Fd =
      open(Path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0) {
    Err = errno;
    return "";
  }
  struct stat St;
  bool Ok = fstat(Fd, &St) == 0 && S_ISCHR(St.st_mode);
  const char *Why = "it changed while it was opened";
  if (Ok) {
    fcntl(Fd, F_SETFL, fcntl(Fd, F_GETFL) & ~O_NONBLOCK);
    Ok = writeAll(Fd, Data, Size);
    Err = Ok ? 0 : errno;
    Why = "writing it failed";
  }
  close(Fd);
  return Ok ? nullptr : Why;
}

// Overwrites the regular file Was at Path in place: its directory does not
// let us create the temporary file. Room is reserved first, so a full disk
// or a size limit leaves the old file whole; a write that fails anyway
// empties it: never half a report.
const char *writeInPlace(const char *Path, const struct stat &Was,
                         const char *Data, size_t Size, int &Err) {
  int Fd =
      open(Path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
  if (Fd < 0) {
    Err = errno;
    return "";
  }
  struct stat St;
  if (fstat(Fd, &St) != 0 || !S_ISREG(St.st_mode) || St.st_dev != Was.st_dev ||
      St.st_ino != Was.st_ino) {
    close(Fd);
    Err = 0;
    return "it changed while it was opened";
  }
  if (Size && fallocate(Fd, 0, 0, off_t(Size)) != 0 && errno != EOPNOTSUPP &&
      errno != ENOSYS) {
    Err = errno;
    close(Fd);
    return "there is no room for it";
  }
  bool Ok = writeAll(Fd, Data, Size) && ftruncate(Fd, off_t(Size)) == 0;
  Err = Ok ? 0 : errno;
  if (!Ok)
    (void)ftruncate(Fd, 0);
  Ok = close(Fd) == 0 && Ok;
  if (!Ok && !Err)
    Err = errno;
  return Ok ? nullptr : "writing it failed";
}

} // namespace

// Writes a report file without trusting what is at its path (issue 13): the
// text goes to a new file (mode 0600, O_EXCL, so never through a symlink) in
// the same directory, renamed into place once whole, so a reader never sees
// half a report and a symlink or FIFO at the path is never opened. A
// character device is written in place, and so is a regular file in a
// directory we may not create files in. Returns an error message, or null
// when the report is written; File says whether the path is a file (two
// options must not both write it).
const char *writeWholeFile(const char *Path, const char *Data, size_t Size,
                           int &Err, bool &File) {
  struct stat St;
  bool Exists = lstat(Path, &St) == 0;
  File = !Exists || S_ISREG(St.st_mode);
  if (Exists && S_ISCHR(St.st_mode))
    return writeDevice(Path, Data, Size, Err);
  if (!File) {
    Err = 0;
    return S_ISLNK(St.st_mode) ? "it is a symbolic link"
                               : "it is not a regular file";
  }
  // The temporary file's name: the report's, shortened so the suffix still
  // fits in a file name (NAME_MAX).
  const char *Slash = strrchr(Path, '/');
  size_t DirLen = Slash ? size_t(Slash + 1 - Path) : 0;
  constexpr char kSuffix[] = ".tmp.XXXXXX";
  constexpr size_t kMaxBase = NAME_MAX - (sizeof(kSuffix) - 1);
  size_t BaseLen = strlen(Path + DirLen);
  Buffer Tmp;
  Tmp.append(Path, Path + DirLen + (BaseLen < kMaxBase ? BaseLen : kMaxBase));
  Tmp.format("{}", kSuffix);
  Tmp.push_back('\0');
  int Fd = mkostemp(Tmp.data(), O_CLOEXEC);
  if (Fd < 0) {
    Err = errno;
    if (Exists && (Err == EACCES || Err == EPERM || Err == EROFS))
      return writeInPlace(Path, St, Data, Size, Err);
    return ""; // strerror says it all
  }
  bool Ok = writeAll(Fd, Data, Size);
  Err = errno;
  Ok = close(Fd) == 0 && Ok;
  if (Ok && rename(Tmp.data(), Path) == 0)
    return nullptr;
  if (!Err)
    Err = errno;
  unlink(Tmp.data());
  return Ok ? "cannot rename it into place" : "writing it failed";
}

int openForReading(const char *Path) {
  return open(Path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

} // namespace __spiketrap
