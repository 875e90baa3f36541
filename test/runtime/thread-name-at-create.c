// UNSUPPORTED: emulated
// (Under qemu every thread carries qemu's name.)
// RUN: %clang %spiketrap_all -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none:report_json=%t.json %run %t
// RUN: python3 %S/../Inputs/report_json.py thread-names %t.json | FileCheck %s

// The creating thread names a new thread right after pthread_create (as
// memcached does) while the thread registers at its first hook. It read its
// name from the kernel, then joined the registry, where the rename looked
// for it: a rename in between was lost (half the runs of memcached with
// kernel_events=1, whose set-up widens the gap). Now it reads its name under
// the registry's lock once it is in the list. The program's own prctl (the
// runtime calls it to read the name) holds the thread there until the
// kernel has the new name: the rename lands in the gap every time.

#define _GNU_SOURCE
#include "../Inputs/spin.h"
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int InGap;   // the worker has read its name and waits for the rename
static int Renamed; // pthread_setname_np returned

static int kernelNameIs(const char *Want) {
  char Path[64], Buf[32] = {0};
  snprintf(Path, sizeof(Path), "/proc/self/task/%ld/comm", syscall(SYS_gettid));
  int Fd = open(Path, O_RDONLY);
  if (Fd < 0)
    return 0;
  ssize_t N = read(Fd, Buf, sizeof(Buf) - 1);
  close(Fd);
  return N > 0 && strncmp(Buf, Want, strlen(Want)) == 0;
}

int prctl(int Option, ...) {
  va_list Ap;
  va_start(Ap, Option);
  unsigned long A[4];
  for (int I = 0; I < 4; ++I)
    A[I] = va_arg(Ap, unsigned long);
  va_end(Ap);
  long R = syscall(SYS_prctl, Option, A[0], A[1], A[2], A[3]);
  if (Option == PR_GET_NAME && syscall(SYS_gettid) != getpid()) {
    __atomic_store_n(&InGap, 1, __ATOMIC_RELEASE);
    while (!kernelNameIs("worker"))
      sched_yield();
  }
  return (int)R;
}

__attribute__((noinline)) void work(void) { spin_ns(2000000); }
__attribute__((noinline)) void *worker(void *Arg) {
  // Its spike comes after the rename: one recorded between the kernel's
  // rename and the runtime's (in pthread_setname_np) has the old name.
  while (!__atomic_load_n(&Renamed, __ATOMIC_ACQUIRE))
    sched_yield();
  work();
  return Arg;
}

// CHECK: ['main', 'worker']
int main(void) {
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  while (!__atomic_load_n(&InGap, __ATOMIC_ACQUIRE))
    sched_yield();
  pthread_setname_np(T, "worker");
  __atomic_store_n(&Renamed, 1, __ATOMIC_RELEASE);
  pthread_join(T, 0);
  work();
  return 0;
}
