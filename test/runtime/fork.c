// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.dir && mkdir %t.dir
// RUN: env SPIKETRAP_OPTIONS=report=%t.dir/r.%%p.txt %run %t > %t.pids
// RUN: sh -c 'FileCheck %s --check-prefix=PARENT < %t.dir/r.$(grep parent %t.pids | cut -d" " -f2).txt'
// RUN: sh -c 'FileCheck %s --check-prefix=CHILD < %t.dir/r.$(grep child %t.pids | cut -d" " -f2).txt'
// UNSUPPORTED: windows
// (Windows: Windows has no fork.)

// fork: the child starts with a clean state (none of the parent's spikes or
// counts, its inherited open frames never reported) and writes its own
// report, to its own path through %p; the parent's report has only its own
// spikes. vfork + exec and posix_spawn run safely alongside.

#include "../Inputs/spin.h"
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
__attribute__((noinline)) void parent_before(void) { spin_ns(2000000); }
__attribute__((noinline)) void parent_after(void) { spin_ns(2000000); }
__attribute__((noinline)) void child_work(void) { spin_ns(2000000); }

__attribute__((noinline)) void spawn_helpers(void) {
  char *Argv[] = {"true", 0};
  pid_t P = vfork();
  if (P == 0) {
    execve("/bin/true", Argv, environ);
    _exit(127);
  }
  waitpid(P, 0, 0);
  posix_spawn(&P, "/bin/true", 0, 0, Argv, environ);
  waitpid(P, 0, 0);
}

__attribute__((noinline)) void run(void) {
  parent_before();
  fflush(stdout);
  pid_t Child = fork();
  if (Child == 0) {
    printf("child %d\n", getpid());
    child_work();
    return;
  }
  waitpid(Child, 0, 0);
  spawn_helpers();
  parent_after();
  printf("parent %d\n", getpid());
}

int main(void) {
  run();
  return 0;
}

// PARENT-DAG: spike: {{.*}} in parent_before
// PARENT-DAG: spike: {{.*}} in parent_after
// PARENT-NOT: child_work
// PARENT: spiketrap: {{[0-9]+}} spikes, 5 instrumented calls, 1 threads

// CHILD-NOT: parent_before
// CHILD: spike: {{.*}} in child_work
// CHILD-NEXT: thread {{.*}} (tid
// CHILD-NEXT: #0 main
// CHILD-NEXT: #1 run ({{.*}}fork.c:{{[0-9]+}}){{$}}
// CHILD-NEXT: #2 child_work
// CHILD-NOT: parent_
// CHILD: spiketrap: 1 spikes, 1 instrumented calls, 1 threads
