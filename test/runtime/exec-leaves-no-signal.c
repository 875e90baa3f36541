// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp; exec of a
// foreign program under qemu-user is not what this checks)
// RUN: %clang %spiketrap_all -O2 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none %run %t %t 2>&1 | FileCheck %s
// A static program: execve is the system call there, execvp & co. glibc's
// own search of PATH (__execvpe).
// RUN: %clang %spiketrap_all -O2 -g -static %s %rtlib -o %t.static
// RUN: env SPIKETRAP_OPTIONS=report=none %run %t.static %t.static 2>&1 | FileCheck %s

// A program that execs (after a fork, or in place) leaves no signal of the
// sampler pending: the new program starts with that signal at its default
// action, which would end it. Each child here execs while its parent's
// calls are open and ticking, through each of the exec calls; without the
// guard, a few in a hundred died of the signal (SIGRTMAX). Then a chain of
// programs each replacing itself, and an exec that fails and returns.

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

__attribute__((noinline)) void busy(void) {
  for (volatile int I = 0; I < 2000000; ++I)
    ;
}

__attribute__((noinline)) void exec_child(const char *Self, int How) {
  char *Args[] = {(char *)Self, "child", 0};
  switch (How % 7) {
  case 0:
    execv(Self, Args);
    break;
  case 1:
    execve(Self, Args, environ);
    break;
  case 2:
    execvp(Self, Args);
    break;
  case 3:
    execl(Self, Self, "child", (char *)0);
    break;
  case 4:
    execle(Self, Self, "child", (char *)0, environ);
    break;
  case 5:
    execlp(Self, Self, "child", (char *)0);
    break;
  case 6:
    execvpe(Self, Args, environ);
    break;
  }
  _exit(127);
}

__attribute__((noinline)) int spawn(const char *Self, int How) {
  busy();
  pid_t P = fork();
  if (P == 0)
    exec_child(Self, How);
  int St;
  if (waitpid(P, &St, 0) != P)
    return -1;
  return WIFSIGNALED(St) ? WTERMSIG(St) : WEXITSTATUS(St);
}

// Replaces itself N times, each after a busy while in an open call.
__attribute__((noinline)) void chain(const char *Self, int N) {
  busy();
  char Left[16];
  snprintf(Left, sizeof(Left), "%d", N - 1);
  execl(Self, Self, "chain", Left, (char *)0);
  perror("execl");
  exit(1);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "child"))
    return 0;
  if (argc > 2 && !strcmp(argv[1], "chain")) {
    int N = atoi(argv[2]);
    if (N > 0)
      chain(argv[0], N);
    printf("chain ended\n");
    return 0;
  }
  int Bad = 0;
  for (int I = 0; I < 120; ++I)
    if (spawn(argv[1], I) != 0)
      ++Bad;
  printf("children that did not exit 0: %d of 120\n", Bad);
  char *Missing[] = {"/nonexistent/spiketrap-exec", 0};
  int R = execv(Missing[0], Missing);
  printf("failed exec: %d %s\n", R, errno == ENOENT ? "ENOENT" : "?");
  busy();
  fflush(stdout);
  chain(argv[1], 20);
}

// CHECK: children that did not exit 0: 0 of 120
// CHECK: failed exec: -1 ENOENT
// CHECK: chain ended
