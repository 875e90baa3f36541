//===- spiketrap_background.cpp - The runtime's own threads ---------------===//
//
// The live log and the report-on-signal each run on a thread of their own,
// never on a thread the program is timing.
//
//===----------------------------------------------------------------------===//
#include "spiketrap_background.h"
#include "spiketrap_thread.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace __spiketrap {

namespace {

struct Start {
  void (*Body)(void *);
  void *Arg;
};

// The runtime's threads alive in this process.
int Running;

void *threadMain(void *P) {
  // Hooks reached from here (an instrumented malloc or free) return at once.
  RecursionGuard Guard;
  Start S = *static_cast<Start *>(P);
  free(P);
  S.Body(S.Arg);
  __atomic_fetch_sub(&Running, 1, __ATOMIC_RELAXED);
  return nullptr;
}

} // namespace

bool startBackgroundThread(void (*Body)(void *), void *Arg) {
  auto *S = static_cast<Start *>(malloc(sizeof(Start)));
  if (!S)
    return false;
  *S = {Body, Arg};
  // The thread inherits a full signal mask: the program's handlers keep
  // running on the program's threads.
  sigset_t All, Old;
  sigfillset(&All);
  pthread_sigmask(SIG_SETMASK, &All, &Old);
  pthread_t T;
  __atomic_fetch_add(&Running, 1, __ATOMIC_RELAXED);
  int Err = pthread_create(&T, nullptr, threadMain, S);
  pthread_sigmask(SIG_SETMASK, &Old, nullptr);
  if (Err) {
    __atomic_fetch_sub(&Running, 1, __ATOMIC_RELAXED);
    free(S);
    return false;
  }
  pthread_detach(T);
  return true;
}

namespace {
// Whether task Tid of this process has exited (a zombie: a thread group
// leader that ended stays one until the process does).
bool exited(const char *Tid) {
  char Path[64] = "/proc/self/task/";
  strncat(Path, Tid, 24);
  strcat(Path, "/stat");
  int Fd = open(Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return true;
  char Buf[256];
  ssize_t N = read(Fd, Buf, sizeof(Buf) - 1);
  close(Fd);
  if (N <= 0)
    return true;
  Buf[N] = 0;
  // "tid (comm) S ...": the state follows the last ')'.
  const char *Close = strrchr(Buf, ')');
  return !Close || Close[1] != ' ' || Close[2] == 'Z' || Close[2] == 'X';
}
} // namespace

bool onlyRuntimeThreadsLeft() {
  int Dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (Dir < 0)
    return false;
  int Alive = 0;
  char Buf[4096];
  for (;;) {
    long N = syscall(SYS_getdents64, Dir, Buf, sizeof(Buf));
    if (N <= 0)
      break;
    for (long Off = 0; Off < N;) {
      auto *E = reinterpret_cast<struct dirent64 *>(Buf + Off);
      Off += E->d_reclen;
      if (E->d_name[0] != '.' && !exited(E->d_name))
        ++Alive;
    }
  }
  close(Dir);
  return Alive <= __atomic_load_n(&Running, __ATOMIC_RELAXED);
}

void backgroundAfterForkChild() {
  __atomic_store_n(&Running, 0, __ATOMIC_RELAXED);
}

} // namespace __spiketrap
