#include <time.h>
// 30 ms of work (a sleep would be idle, not a spike).
static void slow(void) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do
    clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
         30000000L);
}
int main(void) {
  slow();
  return 0;
}
