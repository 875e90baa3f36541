// Per-call cost: fib(n) through a volatile function pointer, so every call
// stays a real call after inlining. Makes 2*fib(n+1)-1 calls of fib per
// round; prints the calls made and the nanoseconds the rounds took (start-up
// and exit work of the runtimes under test are outside the timed region).
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long fib(int N);
static long (*volatile Fib)(int) = fib;

static long fib(int N) { return N < 2 ? N : Fib(N - 1) + Fib(N - 2); }

static long long nowNs(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec * 1000000000LL + T.tv_nsec;
}

// Callgrind counts instructions only inside this function
// (--toggle-collect=run_rounds), so runtime start-up is not counted.
__attribute__((noinline)) long run_rounds(int N, int Rounds) {
  long Sum = 0;
  for (int R = 0; R < Rounds; ++R)
    Sum += Fib(N);
  return Sum;
}

int main(int argc, char **argv) {
  int N = argc > 1 ? atoi(argv[1]) : 30;
  int Rounds = argc > 2 ? atoi(argv[2]) : 1;
  long long Start = nowNs();
  long Sum = run_rounds(N, Rounds);
  long long Ns = nowNs() - Start;
  long A = 0, B = 1; // calls(n) = 2*fib(n+1) - 1
  for (int I = 0; I < N + 1; ++I) {
    long C = A + B;
    A = B;
    B = C;
  }
  printf("calls=%ld ns=%lld sum=%ld\n", (2 * A - 1) * Rounds, Ns, Sum);
  return 0;
}
