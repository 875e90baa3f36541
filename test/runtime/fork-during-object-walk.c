// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -ldl -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=1ms timeout 120 %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: Windows has no fork.)
// TSan does not let a child of a multi-threaded process start threads;
// ASan's dlclose interceptor comes before the runtime's, whose walk this
// stretches.
// UNSUPPORTED: sanitize-thread, sanitize-address

// fork() while another thread is in one of the runtime's walks of the
// loaded objects (dl_iterate_phdr, which holds the loader's write lock):
// the child still exits. glibc does not make that lock anew in a child, so
// a child forked mid-walk hung in its own first walk, at exit (CI: 1 child
// in ~15,000 of fork-background.c). The runtime's dlclose holds fork off
// through the real dlclose too, which takes that lock as it unlinks the
// object. Here the walk is made to last: this program's own
// dl_iterate_phdr, which the runtime calls, sleeps inside the real one's
// callback while the main thread forks.

#define _GNU_SOURCE
#include "../Inputs/spin.h"
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*Callback)(struct dl_phdr_info *, size_t, void *);
static __thread int Slow; // on the thread that closes
static volatile int Inside;

struct Wrapped {
  Callback F;
  void *Data;
  int Slept;
};

static int slowly(struct dl_phdr_info *Info, size_t Size, void *P) {
  struct Wrapped *W = P;
  if (!W->Slept) {
    W->Slept = 1;
    Inside = 1;
    usleep(300000); // the main thread forks meanwhile
  }
  return W->F(Info, Size, W->Data);
}

int dl_iterate_phdr(Callback F, void *Data) {
  static int (*Real)(Callback, void *);
  if (!Real)
    Real = (int (*)(Callback, void *))dlsym(RTLD_NEXT, "dl_iterate_phdr");
  if (!Slow)
    return Real(F, Data);
  struct Wrapped W = {F, Data, 0};
  return Real(slowly, &W);
}

__attribute__((noinline)) void child_work(void) { spin_ns(3000000); }

// The runtime's dlclose walks the objects (to copy their descriptors).
static void *closer(void *Arg) {
  Slow = 1;
  void *H = dlopen("libm.so.6", RTLD_NOW);
  if (H)
    dlclose(H);
  return Arg;
}

int main(void) {
  pthread_t T;
  pthread_create(&T, 0, closer, 0);
  for (int Ms = 0; !Inside; ++Ms) {
    if (Ms == 20000) {
      printf("the runtime's dlclose made no walk\n");
      return 1;
    }
    usleep(1000);
  }
  pid_t P = fork();
  if (P == 0) {
    child_work(); // a spike: the child's report at exit names it
    exit(0);
  }
  int Exited = 0;
  for (int Ms = 0; Ms < 20000 && !Exited; ++Ms) {
    Exited = waitpid(P, 0, WNOHANG) == P;
    if (!Exited)
      usleep(1000);
  }
  if (!Exited) {
    kill(P, SIGKILL);
    waitpid(P, 0, 0);
  }
  pthread_join(T, 0);
  printf("child exited: %d\n", Exited);
  return 0;
}

// CHECK: spike: {{.*}} in child_work
// CHECK: child exited: 1
