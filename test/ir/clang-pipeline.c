// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O0 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O0 --implicit-check-not=__spiketrap_enter
// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O2 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O2 --implicit-check-not=__spiketrap_enter \
// RUN:     --implicit-check-not=desc.square --implicit-check-not=@square
// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O2 -S -emit-llvm \
// RUN:   -mllvm -spiketrap-default-threshold=5ms %s -o - | FileCheck %s --check-prefix=OPT
// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O2 -g -c %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM

// clang with the plugin instruments at -O0 and -O2, after inlining: at -O2 the
// inlined static helper has no hooks of its own. The two-flag form lets -mllvm
// reach the plugin's options, and objects reference the runtime's symbols.
// (-spiketrap-instrument-all: square is below the size rules at -O0.)

// Each descriptor ends with the offset of its function's patchable site.
// O0-DAG:    @__spiketrap_desc.square = {{.*}} { i32 65536, {{.*}}, i32 0, i32 trunc (i64 sub (i64 ptrtoint (ptr @square to i64), {{.*}}) to i32) }
// At -O0 sum_squares calls square, an instrumented function of this module:
// its descriptor points at a table holding square's (test/ir/callees.ll).
// O0-DAG:    @__spiketrap_desc.sum_squares = {{.*}} { i32 1114112, {{.*}}, i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_callees.sum_squares to i64), {{.*}}) to i32), i32 trunc {{.*}} }
// O2-DAG:    @__spiketrap_desc.sum_squares = {{.*}} { i32 65536, {{.*}}, i32 0, i32 trunc {{.*}} }
// OPT:       @__spiketrap_desc.sum_squares = {{.*}} { i32 65552, {{.*}}, i32 0, i32 trunc {{.*}} }, { i64, i64, i32 } { i64 5000000, i64 0, i32 0 } }

static int square(int x);

// At -O0 and -O2 alike the function keeps its code, with prefix and
// prologue data for its patchable site (sites.ll): no hook calls.
// CHECK-LABEL: define {{.*}}i32 @sum_squares({{.*}} prefix {{.*}} prologue
// O0:          call i32 @square(
int sum_squares(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(i);
  return s;
}

// clang emits a static function after its first user.
// O0-LABEL: define internal i32 @square({{.*}} prefix {{.*}} prologue
static int square(int x) { return x * x; }

// NM-DAG: U __spiketrap_abi_v10
// NM-DAG: U __spiketrap_tramp_1
// NM-DAG: T sum_squares
