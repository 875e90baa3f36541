// RUN: %clang %spiketrap_all -g -O2 -pthread %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/../Inputs/report_json.py sampled-culprit %t.json | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably)

// A call held up in a wait the runtime does not interpose (recvmsg): its
// thread's CPU clock stands still, so no tick lands there (nothing can
// interrupt the wait) and the spike has no samples. Nor is that time taken
// for preemption: the watcher's run-delay reading of the sleeping thread
// does not count the switch that put it to sleep as one it came back from.

#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

static int Pair[2];

static void *late(void *Arg) {
  usleep(300 * 1000);
  (void)!write(Pair[1], "x", 1);
  return Arg;
}

__attribute__((noinline)) void meet(void) {
  char C;
  struct iovec V = {&C, 1};
  struct msghdr Msg = {0};
  Msg.msg_iov = &V;
  Msg.msg_iovlen = 1;
  (void)!recvmsg(Pair[0], &Msg, 0);
}

int main(void) {
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, Pair))
    return 1;
  pthread_t T;
  pthread_create(&T, 0, late, 0);
  meet();
  pthread_join(T, 0);
  return 0;
}

// CHECK:      spike: {{.*}} in meet ({{.*}}sample-blocked.c:[[#]]), threshold 20.000 ms
// CHECK-NOT:  preempted
// CHECK-NOT:  sampled:
// CHECK:      spiketrap: 1 spikes
// JSON: sampled None
