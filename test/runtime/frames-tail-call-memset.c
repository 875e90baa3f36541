// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json frame | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably; not tried on AArch64
// hardware)

// A switched-off function whose last act is a call into code built without
// the plugin (the C library's memset, of a fresh 64 MiB mapping: page
// faults) is on the stack while that code runs: the pass keeps its call a
// call (-spiketrap-keep-callers), so the samples of its timed caller's
// spike find it above memset. As a tail call (a jump) its frame was gone,
// and the chain read `frame > ~memset`.

#include <stddef.h>
#include <string.h>
#include <sys/mman.h>

enum { Size = 64 << 20 };

volatile int Sink;

__attribute__((noinline)) void clear(char *P, size_t N) {
  Sink += 1;
  memset(P, 0, N); // a tail call
}

__attribute__((noinline)) void frame(char *Big, int N) {
  char Small[256];
  for (int I = 0; I < 100; ++I)
    clear(Small, sizeof(Small)); // hot and fast: switched off
  if (N == 150)
    clear(Big, Size);
  Sink += Small[N & 255];
}

int main(void) {
  char *P = mmap(0, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  if (P == MAP_FAILED)
    return 1;
  for (int N = 0; N < 200; ++N)
    frame(P, N);
  return 0;
}

// CHECK:      spike: {{.*}} in frame ({{.*}}frames-tail-call-memset.c:[[#]]), threshold 1.000 ms
// CHECK:      #1  frame (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ clear ({{.*}}frames-tail-call-memset.c:[[#]])
// CHECK-NEXT:       ~ memset ({{.*}}libc.so{{.*}})
// JSON: frame > ~clear > ~memset [libc.so.6] | culprit memset [libc.so.6]: ok
