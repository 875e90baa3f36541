// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// RUN: %clang %spiketrap_all -O2 -g -pthread -static %s %rtlib -o %t
// RUN: %clang %spiketrap_all -O2 -g -pthread -static-pie %s %rtlib -o %t.pie
// RUN: timeout 120 %run %t | FileCheck %s
// RUN: timeout 120 %run %t.pie | FileCheck %s

// Threads that wait in pthread_cond_wait in a statically linked program
// sleep in the kernel until signalled, as the C library's own wait does:
// eight of them idle for a second cost a handful of context switches and
// no measurable CPU time, not a wake-up every few microseconds (tens of
// thousands of switches, a quarter of a core), whatever the load.

#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static int Go;

__attribute__((noinline)) void *idle(void *Arg) {
  pthread_mutex_lock(&M);
  while (!Go)
    pthread_cond_wait(&C, &M);
  pthread_mutex_unlock(&M);
  return Arg;
}

// Context switches and CPU microseconds of the whole process so far.
static void usage(long *Switches, long *CpuUs) {
  struct rusage U;
  getrusage(RUSAGE_SELF, &U);
  *Switches = U.ru_nvcsw + U.ru_nivcsw;
  *CpuUs = (U.ru_utime.tv_sec + U.ru_stime.tv_sec) * 1000000L +
           U.ru_utime.tv_usec + U.ru_stime.tv_usec;
}

int main(void) {
  pthread_t T[8];
  for (int I = 0; I < 8; ++I)
    pthread_create(&T[I], 0, idle, 0);
  struct timespec Second = {1, 0};
  nanosleep(&Second, 0);
  long Switches0, Cpu0, Switches1, Cpu1;
  usage(&Switches0, &Cpu0);
  nanosleep(&Second, 0);
  usage(&Switches1, &Cpu1);
  pthread_mutex_lock(&M);
  Go = 1;
  pthread_cond_broadcast(&C);
  pthread_mutex_unlock(&M);
  for (int I = 0; I < 8; ++I)
    pthread_join(T[I], 0);
  long Switches = Switches1 - Switches0, Cpu = Cpu1 - Cpu0;
  printf("context switches while idle < 1000: %d (%ld)\n", Switches < 1000,
         Switches);
  printf("CPU while idle < 100 ms: %d (%ld us)\n", Cpu < 100000, Cpu);
  return 0;
}

// CHECK: context switches while idle < 1000: 1
// CHECK: CPU while idle < 100 ms: 1
