// UNSUPPORTED: sanitize-address
// (ASan describes each instrumented global to its runtime with absolute
// pointers: one relocation each, whatever the descriptors do.)
// RUN: %clang %spiketrap_all -fPIE -pie -O2 %s %rtlib -o %t.one
// RUN: %clang %spiketrap_all -fPIE -pie -O2 -DMANY %s %rtlib -o %t.many
// RUN: llvm-readelf -r %t.one | grep -c -E 'R_(X86_64|AARCH64)_RELATIVE' > %t.one.count || true
// RUN: llvm-readelf -r %t.many | grep -c -E 'R_(X86_64|AARCH64)_RELATIVE' > %t.many.count || true
// RUN: diff %t.one.count %t.many.count

// The descriptors the pass emits hold offsets from their own fields (name,
// file, channel, callees), not addresses: a position-independent program
// needs no dynamic relocation for them, however many functions it
// instruments. Twenty more instrumented functions (each with a name, a file
// and a callee table) add no R_*_RELATIVE relocation.

#include "spiketrap.h"

__attribute__((noinline)) int leaf(int X) { return X * 3 + 1; }

#ifdef MANY
#define FN(N)                                                                  \
  SPIKETRAP_CHANNEL("chan" #N)                                                 \
  __attribute__((noinline)) int f##N(int X) { return leaf(X) + N; }
FN(0) FN(1) FN(2) FN(3) FN(4) FN(5) FN(6) FN(7) FN(8) FN(9)
FN(10) FN(11) FN(12) FN(13) FN(14) FN(15) FN(16) FN(17) FN(18) FN(19)
#define CALL(N) +f##N(X)
int many(int X) {
  return 0 CALL(0) CALL(1) CALL(2) CALL(3) CALL(4) CALL(5) CALL(6) CALL(7)
      CALL(8) CALL(9) CALL(10) CALL(11) CALL(12) CALL(13) CALL(14) CALL(15)
          CALL(16) CALL(17) CALL(18) CALL(19);
}
#else
int many(int X) { return leaf(X); }
#endif

int main(int Argc, char **Argv) { return many(Argc) == 0; }
