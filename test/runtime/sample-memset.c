// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json load_level | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably; not tried on AArch64
// hardware)

// memset of a fresh 64 MiB mapping: its time is page faults, in the C
// library's memset. The C library chose that memset at load time and its
// own name for it is a local symbol the distribution stripped: the report
// names it by the name the program called it with, found in the GOT.

#include <string.h>
#include <sys/mman.h>

enum { Size = 64 << 20 };

__attribute__((noinline)) void load_level(char *P) { memset(P, 1, Size); }

int main(void) {
  char *P = mmap(0, Size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  if (P == MAP_FAILED)
    return 1;
  load_level(P);
  return P[Size / 2] != 1;
}

// CHECK:      spike: {{.*}} in load_level ({{.*}}sample-memset.c:[[#]]), threshold 1.000 ms
// CHECK:      #1  load_level (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ memset ({{.*}}libc.so{{.*}})
// JSON: load_level > ~memset [libc.so.6] | culprit memset [libc.so.6]: ok
