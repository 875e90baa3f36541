// What the interposed waiting calls add to calls that do not wait: an
// uncontended pthread_mutex_lock/unlock pair and a 1-byte read() of
// /dev/zero, each made N times from inside one instrumented function (the
// case where the runtime notes waits), in ns per call, best of 5 rounds.
// Built plain and with spiketrap (docs/performance.md, "Waiting calls"):
//   clang-19 -O2 waits_cost.c -o plain -pthread
//   clang-19 -O2 -fplugin=P -fpass-plugin=P waits_cost.c libspiketrap.a -o st -pthread
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1e9 + T.tv_nsec;
}

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) double locks(long N) {
  double T0 = nowNs();
  for (long I = 0; I < N; ++I) {
    pthread_mutex_lock(&M);
    pthread_mutex_unlock(&M);
  }
  return (nowNs() - T0) / N;
}

__attribute__((noinline)) double reads(int Fd, long N) {
  char C;
  double T0 = nowNs();
  for (long I = 0; I < N; ++I)
    if (read(Fd, &C, 1) != 1)
      abort();
  return (nowNs() - T0) / N;
}

int main(int Argc, char **Argv) {
  long N = Argc > 1 ? atol(Argv[1]) : 2000000;
  int Fd = open("/dev/zero", O_RDONLY);
  double L = 1e18, R = 1e18;
  for (int Round = 0; Round < 5; ++Round) {
    double A = locks(N), B = reads(Fd, N / 4);
    L = A < L ? A : L;
    R = B < R ? B : R;
  }
  printf("lock+unlock %.1f ns  read %.1f ns\n", L, R);
  return 0;
}
