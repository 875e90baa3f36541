// An event loop of N short turns over a pipe, as libevent's test-fdleak
// runs them: each turn writes a byte, waits for the pipe with epoll_wait
// (it is ready at once: the wait never blocks) and reads the byte back in a
// callback. What an instrumented loop pays per turn beyond plain is the
// interposed waits' cost (docs/performance.md, "Event loops").
// Prints "turns=N ns=T" (T: the loop's wall time).
//   clang-19 -O2 evloop.c -o plain
//   clang-19 -O2 -fplugin=P -fpass-plugin=P evloop.c libspiketrap.a -o st
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

static int Pipe[2];

__attribute__((noinline)) static void onReadable(int Fd) {
  char C;
  if (read(Fd, &C, 1) != 1)
    abort();
}

__attribute__((noinline)) static void turn(int Ep) {
  struct epoll_event Ev;
  if (write(Pipe[1], "x", 1) != 1)
    abort();
  if (epoll_wait(Ep, &Ev, 1, -1) != 1)
    abort();
  onReadable(Ev.data.fd);
}

__attribute__((noinline)) static void loop(int Ep, long N) {
  for (long I = 0; I < N; ++I)
    turn(Ep);
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 100000;
  int Ep = epoll_create1(0);
  if (pipe(Pipe) || Ep < 0)
    return 1;
  struct epoll_event Ev = {.events = EPOLLIN, .data.fd = Pipe[0]};
  if (epoll_ctl(Ep, EPOLL_CTL_ADD, Pipe[0], &Ev))
    return 1;
  long long T0 = nowNs();
  loop(Ep, N);
  printf("turns=%ld ns=%lld\n", N, nowNs() - T0);
  return 0;
}
