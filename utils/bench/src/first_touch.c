/* The cost of the first user-mode access to anonymous memory that
 * madvise(MADV_POPULATE_WRITE) has already made resident (docs/performance.md,
 * Accuracy). On the project's VMs it is 60-160 us with no page fault
 * counted, unless the memory was read once right after populating it, which
 * is what the runtime's spike arena does.
 *   clang -O2 first_touch.c -o first_touch && ./first_touch */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <x86intrin.h>

static void trial(int ReadAfterPopulate) {
  size_t Size = 8 << 20;
  char *A = mmap(0, Size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (A == MAP_FAILED || madvise(A, 65536, MADV_POPULATE_WRITE) != 0) {
    perror("first_touch");
    return;
  }
  if (ReadAfterPopulate)
    for (int P = 0; P < 65536; P += 4096)
      (void)__atomic_load_n(A + P, __ATOMIC_RELAXED);
  struct timespec Ts = {0, 3000000}; /* a spike's worth of sleep */
  nanosleep(&Ts, 0);
  uint64_t T0 = __rdtsc();
  A[0] = 1;
  uint64_t T1 = __rdtsc();
  A[4096 * 5] = 1;
  uint64_t T2 = __rdtsc();
  printf("%-26s first write %7llu ticks, another page %5llu ticks\n",
         ReadAfterPopulate ? "populated, then read:" : "populated only:",
         (unsigned long long)(T1 - T0), (unsigned long long)(T2 - T1));
  munmap(A, Size);
}

int main(void) {
  for (int I = 0; I < 3; ++I) {
    trial(0);
    trial(1);
  }
  return 0;
}
