// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: rm -f %t.json
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --json %t.json -- %t
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: %spiketrap_report summary %t.json | FileCheck %s

// spiketrap-report run collects the report of every process the program
// starts that reports too (here an instrumented child it runs with exec),
// and --json keeps them merged: one run per process.

#include "../Inputs/spin.h"
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void parent_work(void) { spin_ns(3000000); }
__attribute__((noinline)) void child_work(void) { spin_ns(3000000); }

int main(int argc, char **argv) {
  if (argc > 1) {
    child_work();
    return 0;
  }
  parent_work();
  pid_t pid = fork();
  if (pid == 0) {
    execl(argv[0], argv[0], "child", (char *)0);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  return 0;
}

// VALID: 1 valid, 0 invalid

// CHECK-DAG: run {{[01]}}: {{.*}}run-processes.c.tmp (pid
// CHECK-DAG: run {{[01]}}: {{.*}}run-processes.c.tmp child (pid
// CHECK-DAG: 1/1 100%      parent_work
// CHECK-DAG: 1/1 100%      child_work
