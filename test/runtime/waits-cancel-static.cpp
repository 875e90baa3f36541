// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// RUN: %clangxx -O2 -g -pthread -static %s -o %t.plain
// RUN: %clangxx %spiketrap_all -O2 -g -pthread -static %s %rtlib -o %t
// RUN: %clangxx %spiketrap_all -O2 -g -pthread -static-pie %s %rtlib -o %t.pie
// RUN: timeout 120 %run %t.plain > %t.plain.out
// RUN: timeout 120 %run %t > %t.out
// RUN: diff %t.plain.out %t.out
// RUN: timeout 120 %run %t.pie > %t.pie.out
// RUN: diff %t.plain.out %t.pie.out
// RUN: FileCheck %s < %t.out

// In a statically linked program (-static, -static-pie), a thread cancelled
// while it waits in an interposed call that is a cancellation point
// (pthread_cond_wait, poll, epoll_wait, sleep, pthread_join) ends as in the
// plain static build: its joiner gets PTHREAD_CANCELED, and the C++
// destructors of the frames above the wait run (the unwinder passes through
// the wrapper and whatever the runtime calls for the C library's function).

#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

static const char *Current;
static volatile int Ready;
static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t C = PTHREAD_COND_INITIALIZER;
static int Pipe[2];
static pthread_t Forever;

struct Cleanup {
  ~Cleanup() { printf("%s: destructor ran\n", Current); }
};

// pthread_cond_wait unlocks the mutex when cancelled; its cleanup relocks
// it, so the thread unlocks it on the way out, as a cleanup handler would.
static void unlockM(void *) { pthread_mutex_unlock(&M); }

__attribute__((noinline)) void waitIn(const char *What) {
  if (!strcmp(What, "pthread_cond_wait")) {
    pthread_mutex_lock(&M);
    pthread_cleanup_push(unlockM, nullptr);
    __atomic_store_n(&Ready, 1, __ATOMIC_RELEASE);
    for (;;)
      pthread_cond_wait(&C, &M);
    pthread_cleanup_pop(1);
  }
  __atomic_store_n(&Ready, 1, __ATOMIC_RELEASE);
  if (!strcmp(What, "poll")) {
    struct pollfd P = {Pipe[0], POLLIN, 0};
    poll(&P, 1, -1);
  } else if (!strcmp(What, "epoll_wait")) {
    int Ep = epoll_create1(0);
    struct epoll_event E = {};
    E.events = EPOLLIN;
    epoll_ctl(Ep, EPOLL_CTL_ADD, Pipe[0], &E);
    epoll_wait(Ep, &E, 1, -1);
  } else if (!strcmp(What, "sleep")) {
    sleep(1000);
  } else if (!strcmp(What, "pthread_join")) {
    pthread_join(Forever, nullptr);
  }
}

__attribute__((noinline)) void *waiter(void *Arg) {
  Cleanup Guard;
  waitIn(static_cast<const char *>(Arg));
  printf("%s: returned\n", Current); // never: the wait is cancelled
  return nullptr;
}

static void *blockForever(void *) {
  for (;;)
    pause();
}

int main() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  if (pipe(Pipe))
    return 1;
  pthread_create(&Forever, nullptr, blockForever, nullptr);
  const char *Calls[] = {"pthread_cond_wait", "poll", "epoll_wait", "sleep",
                         "pthread_join"};
  for (const char *Call : Calls) {
    Current = Call;
    __atomic_store_n(&Ready, 0, __ATOMIC_RELEASE);
    pthread_t T;
    pthread_create(&T, nullptr, waiter, const_cast<char *>(Call));
    // A cancellation sent before the wait acts when the wait begins.
    while (!__atomic_load_n(&Ready, __ATOMIC_ACQUIRE))
      sched_yield();
    pthread_cancel(T);
    void *Ret = nullptr;
    int R = pthread_join(T, &Ret);
    printf("%s: joined %d, cancelled %d\n", Call, R, Ret == PTHREAD_CANCELED);
  }
  return 0;
}

// CHECK: pthread_cond_wait: destructor ran
// CHECK-NEXT: pthread_cond_wait: joined 0, cancelled 1
// CHECK-NEXT: poll: destructor ran
// CHECK-NEXT: poll: joined 0, cancelled 1
// CHECK-NEXT: epoll_wait: destructor ran
// CHECK-NEXT: epoll_wait: joined 0, cancelled 1
// CHECK-NEXT: sleep: destructor ran
// CHECK-NEXT: sleep: joined 0, cancelled 1
// CHECK-NEXT: pthread_join: destructor ran
// CHECK-NEXT: pthread_join: joined 0, cancelled 1
