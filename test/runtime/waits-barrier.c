// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=50ms %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not grep -E 'spike: .* in start_phase' %t.err
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// pthread_barrier_wait is a wait to be woken, counted as a condition
// variable's (docs/selection.md): a worker at the barrier that starts a
// phase, with nothing done yet, waits for work (idle: not a spike); the main
// thread that meets its late worker at the end of a phase waits for a
// result (a stall: a spike that says it waited in pthread_barrier_wait).

#include <pthread.h>
#include <unistd.h>

static pthread_barrier_t Start, End;

__attribute__((noinline)) void start_phase(void) {
  pthread_barrier_wait(&Start);
}

static void *worker(void *Arg) {
  for (int I = 0; I < 2; ++I) {
    start_phase(); // the main thread starts each phase 150 ms late
    usleep(100 * 1000);
    pthread_barrier_wait(&End);
  }
  return Arg;
}

__attribute__((noinline)) void end_phase(void) { pthread_barrier_wait(&End); }

int main(void) {
  pthread_barrier_init(&Start, 0, 2);
  pthread_barrier_init(&End, 0, 2);
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  for (int I = 0; I < 2; ++I) {
    usleep(150 * 1000);
    pthread_barrier_wait(&Start);
    end_phase();
  }
  pthread_join(T, 0);
  return 0;
}

// CHECK:      spike: {{.*}} in end_phase ({{.*}}waits-barrier.c:[[#]]), threshold 50.000 ms
// CHECK:      waited {{[0-9.]+}} ms in pthread_barrier_wait from end_phase
// CHECK:      spiketrap: {{[0-9]+}} idle call{{s?}} over {{its|their}} threshold not reported {{.*}}: {{(.*, )?}}start_phase {{[12]}} (worst {{[0-9.]+}} {{m?s}} in pthread_barrier_wait)
