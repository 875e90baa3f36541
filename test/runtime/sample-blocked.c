// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 -c "import json,sys; s=[x for x in json.load(open(sys.argv[1]))['spikes'] if x.get('sampled',{}).get('culprit') is not None][0]['sampled']; print('blocked', s['blocked'] * 2 > s['agree'])" %t.json | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably)

// A call held up in a wait the runtime does not interpose (a barrier, whose
// futex wait is the C library's own) is sampled there like untimed code:
// the samples found the thread blocked, so the culprit waited, it did not
// run.

#include <pthread.h>
#include <unistd.h>

static pthread_barrier_t Barrier;

static void *late(void *Arg) {
  usleep(300 * 1000);
  pthread_barrier_wait(&Barrier);
  return Arg;
}

__attribute__((noinline)) void meet(void) { pthread_barrier_wait(&Barrier); }

int main(void) {
  pthread_barrier_init(&Barrier, 0, 2);
  pthread_t T;
  pthread_create(&T, 0, late, 0);
  meet();
  pthread_join(T, 0);
  return 0;
}

// CHECK:      spike: {{.*}} in meet ({{.*}}sample-blocked.c:[[#]]), threshold 20.000 ms
// CHECK:        sampled: [[#]] of [[#]] samples agree, the culprit waited for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}), blocked in a call not timed as a wait:
// CHECK-NEXT:       ~ pthread_barrier_wait
// JSON: blocked True
