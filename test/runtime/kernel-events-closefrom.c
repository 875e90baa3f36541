// REQUIRES: perf-events
// RUN: %clang %spiketrap_all -O1 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=kernel_events=1 %run %t 2>&1 | FileCheck %s

// A daemon closes every descriptor it did not open (closefrom) and opens
// its own, which may get the numbers of the runtime's perf event
// descriptors. The runtime then must not close them: not at a thread's
// exit, not in a forked child (which detaches the parent's events).

#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { kFds = 16 };
static int Fds[kFds];
static ino_t Inode[kFds];

// Every descriptor from 3 up is the program's own, 16 of them.
static void reopen(void) {
  closefrom(3);
  for (int I = 0; I < kFds; I += 2)
    if (pipe(Fds + I))
      perror("pipe");
  struct stat St;
  for (int I = 0; I < kFds; ++I)
    Inode[I] = fstat(Fds[I], &St) == 0 ? St.st_ino : 0;
}

// Still open, and still the same pipe (a closed number may have been
// reused by the runtime's new events).
static void check(const char *Where) {
  int Open = 0;
  struct stat St;
  for (int I = 0; I < kFds; ++I)
    Open += fstat(Fds[I], &St) == 0 && St.st_ino == Inode[I];
  printf("%s: %d of %d open\n", Where, Open, kFds);
  fflush(stdout);
}

__attribute__((noinline)) void *worker(void *Arg) {
  reopen(); // closes its own events too
  return Arg;
}

// CHECK: after a thread's exit: 16 of 16 open
// CHECK: in a forked child: 16 of 16 open
// CHECK: in the parent: 16 of 16 open
int main(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  pthread_join(T, 0);
  check("after a thread's exit");
  reopen(); // the main thread's events' numbers are the program's
  pid_t Child = fork();
  if (Child == 0) {
    check("in a forked child");
    return 0;
  }
  waitpid(Child, 0, 0);
  check("in the parent");
  return 0;
}
