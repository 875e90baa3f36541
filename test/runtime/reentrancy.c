// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s
// UNSUPPORTED: sanitize-address, sanitize-thread, windows
// (Windows: glibc's __libc_malloc.)

// The runtime calling instrumented code does not recurse into itself: here
// the program replaces malloc with instrumented (and slow) functions, which
// the runtime itself calls at start-up and while writing the report. Those
// calls are not timed; the program's own calls are.

#include "../Inputs/spin.h"
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

// A slow allocator: every call takes 2 ms.
__attribute__((noinline)) void *malloc(size_t N) {
  spin_ns(2000000);
  return __libc_malloc(N);
}
__attribute__((noinline)) void *calloc(size_t N, size_t S) {
  spin_ns(2000000);
  return __libc_calloc(N, S);
}
__attribute__((noinline)) void *realloc(void *P, size_t N) {
  spin_ns(2000000);
  return __libc_realloc(P, N);
}
__attribute__((noinline)) void free(void *P) { __libc_free(P); }

void *volatile Kept;

int main(void) {
  Kept = malloc(16); // the program's own call: a spike
  free(Kept);
  return 0;
}

// CHECK: spike: {{.*}} in malloc
// CHECK-NEXT: thread main
// CHECK-NEXT: #0 main
// CHECK-NEXT: #1 malloc
// CHECK-NOT: spike:
// CHECK: spiketrap: 1 spikes, 3 instrumented calls
