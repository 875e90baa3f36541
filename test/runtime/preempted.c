// RUN: %clang -g -O2 -c %S/Inputs/burn_cpu.c -o %t.burn.o
// RUN: %clang %spiketrap -g -O2 %s %t.burn.o %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err

#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned burn_cpu_ms(int Ms); // Inputs/burn_cpu.c, not instrumented

static int Stop; // atomic: the hog reads it on another thread

// Both on the first CPU this process may use: they must take turns.
static void pinToOneCpu(void) {
  cpu_set_t S;
  sched_getaffinity(0, sizeof S, &S);
  int C = 0;
  while (!CPU_ISSET(C, &S))
    ++C;
  CPU_ZERO(&S);
  CPU_SET(C, &S);
  sched_setaffinity(0, sizeof S, &S);
}

static void *hog(void *A) {
  while (!__atomic_load_n(&Stop, __ATOMIC_RELAXED))
    ;
  return A;
}

__attribute__((noinline)) unsigned render(void) { return burn_cpu_ms(10); }

int main(void) {
  pinToOneCpu();
  pthread_t H;
  pthread_create(&H, 0, hog, 0);
  // This thread gives way to the hog (nice 19 against 0: ~1.5% of the CPU).
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
  unsigned R = render();
  __atomic_store_n(&Stop, 1, __ATOMIC_RELAXED);
  pthread_join(H, 0);
  return R == 42;
}

// CHECK: render
