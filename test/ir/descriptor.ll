; RUN: %opt -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -passes=spiketrap -spiketrap-instrument-all %s | llc -o - | FileCheck %s --check-prefix=ASM

; Each function gets a private constant spiketrap_desc with its demangled name
; (an offset from its own field, 32 bits wide: SPIKETRAP_DESC_RELATIVE, 65536,
; no dynamic relocation; without thresholds or a channel, no extension) and the
; offset to a zero-initialised spiketrap_state of its own, what the runtime
; writes. From debug info, when present, its file and line follow in a tail of
; their own (SPIKETRAP_DESC_LOCATED, 1 << 19: 589824 with RELATIVE); without,
; the descriptor ends at the common part. The module references the ABI marker
; so that linking without the runtime fails. (-spiketrap-instrument-all: these
; functions are below the size rules.)

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; CHECK: @[[WORK:__spiketrap_str[.0-9]*]] = private unnamed_addr constant [14 x i8] c"ns::work(int)\00"
; CHECK: @[[FILE:__spiketrap_str[.0-9]*]] = private unnamed_addr constant [9 x i8] c"work.cpp\00"
; CHECK: @__spiketrap_desc._ZN2ns4workEi = private constant { [[DESC:{ i32, i32, i32, i32, i32 }]], { i32, i32 } } { [[DESC]] { i32 589824, i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_state._ZN2ns4workEi to i64), i64 ptrtoint (ptr getelementptr ({{.*}}, ptr @__spiketrap_desc._ZN2ns4workEi, i32 0, i32 0, i32 1) to i64)) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @[[WORK]] to i64), i64 ptrtoint (ptr getelementptr ({{.*}}, ptr @__spiketrap_desc._ZN2ns4workEi, i32 0, i32 0, i32 2) to i64)) to i32), {{.*}} }, { i32, i32 } { i32 7, i32 trunc (i64 sub (i64 ptrtoint (ptr @[[FILE]] to i64), i64 ptrtoint (ptr getelementptr ({{.*}}, ptr @__spiketrap_desc._ZN2ns4workEi, i32 0, i32 1, i32 1) to i64)) to i32) } }, align 4
; CHECK: @__spiketrap_state._ZN2ns4workEi = private global { i32, i32, i64, i32, i32, i16, i16, i16 } zeroinitializer, align 8
define i32 @_ZN2ns4workEi(i32 %x) !dbg !5 {
  ret i32 %x
}

; The file name string is shared, not emitted twice.
; CHECK-NOT: c"work.cpp\00"
; CHECK: @__spiketrap_desc.helper = private constant { [[DESC]], { i32, i32 } } { [[DESC]] { i32 589824, {{.*}} }, { i32, i32 } { i32 12, i32 trunc (i64 sub (i64 ptrtoint (ptr @[[FILE]] to i64), {{.*}}) to i32) } }
define void @helper() !dbg !9 {
  ret void
}

; Without debug info: the name only, no location, no empty string for it.
; CHECK: @[[PLAIN:__spiketrap_str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"plain\00"
; CHECK-NOT: zeroinitializer, align 1
; CHECK: @__spiketrap_desc.plain = private constant [[DESC]] { i32 65536, i32 trunc (i64 sub (i64 ptrtoint (ptr @__spiketrap_state.plain to i64), {{.*}}) to i32), i32 trunc (i64 sub (i64 ptrtoint (ptr @[[PLAIN]] to i64), {{.*}}) to i32), i32 0, {{.*}} }, align 4
define void @plain() {
  ret void
}

; CHECK: @__spiketrap_abi_v10 = external global i8
; CHECK: @__spiketrap_abi_ref = private constant ptr @__spiketrap_abi_v10
; CHECK: @llvm.compiler.used = appending global [1 x ptr] [ptr @__spiketrap_abi_ref], section "llvm.metadata"

; The emitted object has the C layout of spiketrap_desc (20 bytes on x86-64,
; aligned to 4, not the 16 LLVM gives a large global), in read-only data; its
; state (32 bytes, aligned to 8) takes no bytes in the file (.bss: local
; common).
; ASM-LABEL: .type .L__spiketrap_desc.plain,@object
; ASM-NEXT:    .section .rodata,"a",@progbits
; ASM-NEXT:    .p2align 2, 0x0
; ASM-NEXT:  .L__spiketrap_desc.plain:
; ASM-NEXT:    .long 65536
; ASM-NEXT:    .long {{\(?}}.L__spiketrap_state.plain-.L__spiketrap_desc.plain{{\)?}}-4
; ASM-NEXT:    .long {{\(?}}.L__spiketrap_str{{[.0-9]*}}-.L__spiketrap_desc.plain{{\)?}}-8
; ASM-NEXT:    .long 0
; ASM-NEXT:    .long {{\(?}}.Lplain.spiketrap_site-.L__spiketrap_desc.plain{{\)?}}-16
; ASM-NEXT:    .size .L__spiketrap_desc.plain, 20
; ASM:         .local .L__spiketrap_state.plain
; ASM-NEXT:    .comm .L__spiketrap_state.plain,32,8
; ASM:       .quad __spiketrap_abi_v10

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "work.cpp", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "work", linkageName: "_ZN2ns4workEi", scope: !1, file: !1, line: 7, type: !4, scopeLine: 7, spFlags: DISPFlagDefinition, unit: !0)
!9 = distinct !DISubprogram(name: "helper", scope: !1, file: !1, line: 12, type: !4, scopeLine: 12, spFlags: DISPFlagDefinition, unit: !0)
