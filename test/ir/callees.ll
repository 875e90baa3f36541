; RUN: %opt -passes=spiketrap -S %s | FileCheck %s
; RUN: %opt -passes=spiketrap %s | llc -relocation-model=pic -o - | FileCheck %s --check-prefix=ASM

; Each descriptor points at a table of the descriptors of the instrumented
; functions of its module it calls directly (each once, itself excluded), so
; the runtime can name and time again the switched-off callees of a spike
; whose time was in its own code. Entries are offsets from their own address:
; no dynamic relocations; the flags' top 12 bits count them (2 << 20, with
; RELATIVE 65536). Declarations and uninstrumented leaves are not in it.

target triple = "x86_64-unknown-linux-gnu"

declare void @external()

; CHECK-DAG: @__spiketrap_desc.caller = private constant {{.*}} { i32 2162688, {{.*}} i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_callees.caller to i64), i64 ptrtoint (ptr getelementptr ({{.*}}, ptr @__spiketrap_desc.caller, i32 0, i32 3) to i64)) to i32), i32 {{.*}} }
; CHECK-DAG: @__spiketrap_callees.caller = private constant [2 x i32] [i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_desc.a to i64), i64 ptrtoint (ptr @__spiketrap_callees.caller to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_desc.b to i64), i64 ptrtoint (ptr getelementptr {{.*}}([2 x i32], ptr @__spiketrap_callees.caller, i64 0, i64 1) to i64)) to i32)], align 4
; The descriptor's own field (offset 12, 32 bits) points at the table the same way.
; ASM-LABEL: .L__spiketrap_desc.caller:
; ASM:       .long {{\(?}}.L__spiketrap_callees.caller-.L__spiketrap_desc.caller{{\)?}}-12
; ASM-LABEL: .L__spiketrap_callees.caller:
; ASM-NEXT:  .long .L__spiketrap_desc.a-.L__spiketrap_callees.caller
; ASM-NEXT:  .long {{\(?}}.L__spiketrap_desc.b-.L__spiketrap_callees.caller{{\)?}}-4
define void @caller(i32 %n) {
  call void @a()
  call void @b()
  call void @a()
  call void @leaf()
  call void @caller(i32 0)
  ret void
}

; CHECK-DAG: @__spiketrap_desc.a = private constant {{.*}} { i32 65536, {{.*}}, i32 0, i32 trunc (i64 sub (i64 ptrtoint (ptr @a.spiketrap_site to i64), {{.*}}) to i32) }
define void @a() {
  call void @external()
  ret void
}

define void @b() {
  call void @external()
  ret void
}

; A leaf is not instrumented: no descriptor, no entry.
; CHECK-NOT: @__spiketrap_desc.leaf
define i32 @leaf(i32 %x) {
  %y = mul i32 %x, %x
  ret i32 %y
}
