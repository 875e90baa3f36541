// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap -O1 -g %s %rtlib -o %t
// RUN: env GLIBC_TUNABLES=glibc.malloc.arena_max=1 SPIKETRAP_OPTIONS=hang_after=20ms:report=none %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: emulated
// (qemu-user reserves the guest's address space, so RLIMIT_AS
// does not limit the program as it does natively)

// The program takes all the memory its address-space limit leaves
// (RLIMIT_AS: prlimit --as, a container's limit) while one of its calls
// runs long: the watcher's line about it finds no memory. One line says
// so and the program runs on (before, Buffer::grow aborted the process
// with no message: 3 runs in 18 of 50 threads under a 24-26 MiB limit).

#include "../Inputs/spin.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

static void *Taken[1 << 20];
static size_t NumTaken;

// Every block malloc still hands out, from 1 MiB down to 16 bytes.
static void takeAll(void) {
  for (size_t Size = 1 << 20; Size >= 16; Size /= 2)
    while (NumTaken < sizeof(Taken) / sizeof(Taken[0])) {
      void *P = malloc(Size);
      if (!P)
        break;
      Taken[NumTaken++] = P;
    }
}

__attribute__((noinline)) void stuck(void) { spin_ns(200000000); }

int main(void) {
  long Pages = 0;
  FILE *F = fopen("/proc/self/statm", "r");
  if (!F || fscanf(F, "%ld", &Pages) != 1)
    return 1;
  fclose(F);
  // 4 MiB more than now: room for the malloc below, none for a new mapping.
  struct rlimit L = {Pages * sysconf(_SC_PAGESIZE) + (4 << 20), RLIM_INFINITY};
  if (setrlimit(RLIMIT_AS, &L))
    return 1;
  takeAll();
  stuck();
  while (NumTaken)
    free(Taken[--NumTaken]);
  printf("done\n");
  return 0;
}

// CHECK: spiketrap: out of memory for the runtime's text: a line or a report is left out
// CHECK: done
