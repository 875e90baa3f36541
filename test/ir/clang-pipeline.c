// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O0 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O2 -S -emit-llvm %s -o - \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O2 \
// RUN:     --implicit-check-not=desc.square --implicit-check-not=@square
// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O2 -S -emit-llvm \
// RUN:   -mllvm -spiketrap-default-threshold=5ms %s -o - | FileCheck %s --check-prefix=OPT
// RUN: %clang %spiketrap_all --target=x86_64-unknown-linux-gnu -O2 -g -c %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM

// clang with the plugin instruments at -O0 and -O2, after inlining: at -O2 the
// inlined static helper has no hooks of its own. The two-flag form lets -mllvm
// reach the plugin's options, and objects reference the runtime's symbols.
// (-spiketrap-instrument-all: square is below the size rules at -O0.)

// O0-DAG:    @__spiketrap_desc.square = {{.*}} { i32 65536, {{.*}}, i32 0, i32 0, i64 0, i32 0, i32 0, i16 0, i16 0, i16 0, i16 0 }
// At -O0 sum_squares calls square, an instrumented function of this module:
// its descriptor points at a table holding square's (test/ir/callees.ll).
// O0-DAG:    @__spiketrap_desc.sum_squares = {{.*}} { i32 65536, {{.*}}, i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_callees.sum_squares to i64), {{.*}}) to i32), i32 0, i64 0, i32 0, i32 0, i16 1, i16 0, i16 0, i16 0 }
// O2-DAG:    @__spiketrap_desc.sum_squares = {{.*}} { i32 65536, {{.*}}, i32 0, i32 0, i64 0, i32 0, i32 0, i16 0, i16 0, i16 0, i16 0 }
// OPT:       @__spiketrap_desc.sum_squares = {{.*}} { i32 65552, {{.*}}, i32 0, i32 0, i64 0, i32 0, i32 0, i16 0, i16 0, i16 0, i16 0 }, { i64, i64, i32 } { i64 5000000, i64 0, i32 0 } }

static int square(int x);

// At -O2 the body moves out of line behind a thunk (split-body.ll); -O0
// keeps one function (and one breakpoint location) per function.
// CHECK-LABEL: define {{.*}}i32 @sum_squares(
// O0:          call void @__spiketrap_enter(ptr @__spiketrap_desc.sum_squares,
// O0:          call i32 @square(
// O0:          call void @__spiketrap_exit(ptr @__spiketrap_desc.sum_squares,
// O2:          musttail call i32 @sum_squares.spiketrap_timed(
// O2:          musttail call i32 @sum_squares.spiketrap(
int sum_squares(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(i);
  return s;
}

// clang emits a static function after its first user; bodies moved out of
// line come last.
// O0-LABEL: define internal i32 @square(
// O0:       call void @__spiketrap_enter(ptr @__spiketrap_desc.square,
// O0:       call void @__spiketrap_exit(ptr @__spiketrap_desc.square,
static int square(int x) { return x * x; }

// O2-LABEL: define internal i32 @sum_squares.spiketrap(
// O2-NOT:   call i32
// O2:       ret i32
// O2-LABEL: define internal i32 @sum_squares.spiketrap_timed(
// O2:       call void @__spiketrap_enter(ptr @__spiketrap_desc.sum_squares,
// O2:       call i32 @sum_squares.spiketrap(
// O2:       call void @__spiketrap_exit(ptr @__spiketrap_desc.sum_squares.exit,

// NM-DAG: U __spiketrap_abi_v6
// NM-DAG: U __spiketrap_enter
// NM-DAG: U __spiketrap_exit
// NM-DAG: T sum_squares
