// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O2 -g -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/waits.py %t.json cache_get --min-wait 40 --max-wait 2000 --max-running 30 --call pthread_mutex_lock --from cache_get | FileCheck %s --check-prefix=GET
// RUN: python3 %S/Inputs/waits.py %t.json load_asset --min-wait 40 --max-wait 2000 --call pthread_mutex_lock --from cache_get | FileCheck %s --check-prefix=LOAD
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// UNSUPPORTED: windows
// (Windows: the C library's waiting calls (Windows's have their own test, test/windows).)

// A spike that waits 60 ms for a mutex another thread holds says so: how
// long it waited, in which call, from which function, and how little it ran
// (in any unit: under 1 us it is ns, and it failed 1 run in 4).
// Sanitizers intercept pthread_mutex_lock themselves: spiketrap leaves the
// waiting calls to them (docs/design.md), so this test needs a plain build.

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

static pthread_mutex_t Cache = PTHREAD_MUTEX_INITIALIZER;
static sem_t Held;

static void *holder(void *Arg) {
  (void)Arg;
  pthread_mutex_lock(&Cache);
  sem_post(&Held);
  struct timespec T = {0, 60 * 1000000};
  nanosleep(&T, 0);
  pthread_mutex_unlock(&Cache);
  return 0;
}

__attribute__((noinline)) int cache_get(int Key) {
  pthread_mutex_lock(&Cache);
  int V = Key * 2;
  pthread_mutex_unlock(&Cache);
  return V;
}

__attribute__((noinline)) int load_asset(int Key) { return cache_get(Key) + 1; }

int main(void) {
  sem_init(&Held, 0, 0);
  pthread_t T;
  pthread_create(&T, 0, holder, 0);
  sem_wait(&Held);
  int V = load_asset(20);
  pthread_join(T, 0);
  return V == 41 ? 0 : 1;
}

// CHECK: spike: {{.*}} in cache_get (
// CHECK:      #1  load_asset ({{.*}}waits-mutex.c:{{[0-9]+}}) {{.*}} ms > 1.000 ms
// CHECK-NEXT:         waited {{[0-9.]+}} ms in pthread_mutex_lock from cache_get ({{.*}}waits-mutex.c:{{[0-9]+}}); running {{[0-9.]+}} {{[mun]}}s
// CHECK-NEXT: #2  cache_get ({{.*}}waits-mutex.c:{{[0-9]+}}) {{.*}} ms > 1.000 ms
// CHECK-NEXT:         waited {{[0-9.]+}} ms in pthread_mutex_lock from cache_get ({{.*}}waits-mutex.c:{{[0-9]+}}); running {{[0-9.]+}} {{[mun]}}s
// GET: cache_get: ok
// LOAD: load_asset: ok
// VALID: 1 valid, 0 invalid
