; RUN: %opt -passes=spiketrap -pass-remarks-missed=spiketrap -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: FileCheck %s < %t.ll
; RUN: llvm-nm -D --undefined-only %plugin | FileCheck %s --check-prefix=SYMBOLS

; The pass alone, under opt, reads the annotation the front-end plugin puts on
; functions marked no_instrument_function as "never", and says why. The pass
; plugin needs no clang symbol (opt has none): the front-end part is a library
; of its own.

; REMARK: remark: {{.*}}: not instrumented 'legacy': never (no_instrument_function at frame.c:7)
; CHECK-NOT: @__spiketrap_desc.legacy
; CHECK:     @__spiketrap_desc.timed =
; SYMBOLS-NOT: {{_ZN5clang|_ZNK5clang}}

source_filename = "frame.c"
target triple = "x86_64-unknown-linux-gnu"

@key = private constant [33 x i8] c"spiketrap.no_instrument_function\00", section "llvm.metadata"
@file = private constant [8 x i8] c"frame.c\00", section "llvm.metadata"

@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @legacy, ptr @key, ptr @file, i32 7, ptr null }
], section "llvm.metadata"

declare void @work()

define void @legacy() {
  call void @work()
  ret void
}

define void @timed() {
  call void @work()
  ret void
}
