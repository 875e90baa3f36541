// UNSUPPORTED: emulated
// (Under qemu-user /proc/self/task/*/syscall shows the host's system calls,
// by the host's numbers: the program cannot see the watchdog's write.)
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=hang_after=100ms %run %t 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// The hang watchdog's stderr is a pipe nobody drains: its write blocks. It
// wrote while holding the thread registry's lock, so every thread start,
// thread exit and fork waited for it, for good. Now it writes after letting
// go. (The program waits until the watchdog is blocked in that write, seen
// in /proc: no timing luck.)

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

// Whether a thread of this process is blocked writing to fd 2. Inlined: the
// stuck call makes no instrumented call while it waits.
__attribute__((always_inline)) static inline int stderrWriteBlocked(void) {
  char Want[32], Path[64], Buf[128];
  snprintf(Want, sizeof(Want), "%d 0x2 ", SYS_write);
  DIR *D = opendir("/proc/self/task");
  int Found = 0;
  for (struct dirent *E; D && !Found && (E = readdir(D));) {
    snprintf(Path, sizeof(Path), "/proc/self/task/%s/syscall", E->d_name);
    int Fd = open(Path, O_RDONLY);
    ssize_t N = Fd >= 0 ? read(Fd, Buf, sizeof(Buf) - 1) : -1;
    if (Fd >= 0)
      close(Fd);
    Buf[N > 0 ? N : 0] = 0;
    Found = strncmp(Buf, Want, strlen(Want)) == 0;
  }
  if (D)
    closedir(D);
  return Found;
}

__attribute__((noinline)) void stuck(void) {
  for (int I = 0; I < 2000 && !stderrWriteBlocked(); ++I) {
    struct timespec T = {0, 10 * 1000000};
    nanosleep(&T, NULL); // 20 s at most
  }
}

__attribute__((noinline)) void *worker(void *Arg) { return Arg; }

// CHECK: a thread started and was joined
// CHECK-NEXT: a child was forked and exited
// The exit report (stderr is back) has the hang.
// ERR: hang: stuck ({{.*}}) showed no sign of life
int main(void) {
  alarm(60); // a hang fails the test, not the whole run
  int Saved = dup(2), P[2];
  if (pipe(P) || dup2(P[1], 2) < 0)
    return 1;
  // Fill the pipe: the watchdog's next write to stderr blocks.
  char Fill[4096] = {0};
  fcntl(2, F_SETFL, O_NONBLOCK);
  while (write(2, Fill, sizeof(Fill)) > 0)
    ;
  fcntl(2, F_SETFL, 0);
  stuck();
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
  printf("a thread started and was joined\n");
  fflush(stdout);
  // The watchdog's write is still blocked on the pipe; the child's stderr
  // (ThreadSanitizer warns there about threads started after fork) is not.
  dup2(Saved, 2);
  pid_t Child = fork();
  if (Child == 0)
    _exit(0);
  waitpid(Child, 0, 0);
  printf("a child was forked and exited\n");
  return 0;
}
