; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s
; RUN: %opt -spiketrap-switch=flag -spiketrap-inline-check=false -passes='spiketrap,inline,verify' -spiketrap-instrument-all -S %s | FileCheck %s --check-prefix=INLINE

; With debug info every inserted call has a location: the scope line at entry,
; the ret's location at exit, line 0 for a ret without one. Inlining the
; instrumented callee afterwards keeps the module valid.
; (-spiketrap-instrument-all: these functions are below the size rules.)

target triple = "x86_64-unknown-linux-gnu"

; CHECK-LABEL: define i32 @callee(
; CHECK-SAME:    !dbg [[SP:![0-9]+]] {
; CHECK-NEXT:    call ptr @llvm.addressofreturnaddress.p0(), !dbg [[ENTRY:![0-9]+]]
; CHECK-NEXT:    call void @__spiketrap_enter({{.*}}), !dbg [[ENTRY]]
; CHECK:         call ptr @llvm.addressofreturnaddress.p0(), !dbg [[RET:![0-9]+]]
; CHECK-NEXT:    call void @__spiketrap_exit({{.*}}), !dbg [[RET]]
; CHECK-NEXT:    ret i32 1, !dbg [[RET]]
; CHECK:         call ptr @llvm.addressofreturnaddress.p0(), !dbg [[NOLOC:![0-9]+]]
; CHECK-NEXT:    call void @__spiketrap_exit({{.*}}), !dbg [[NOLOC]]
; CHECK-NEXT:    ret i32 0{{$}}
define i32 @callee(i32 %x) !dbg !5 {
  %c = icmp eq i32 %x, 0, !dbg !8
  br i1 %c, label %a, label %b, !dbg !8
a:
  ret i32 1, !dbg !9
b:
  ret i32 0
}

; INLINE-LABEL: define i32 @caller(
; INLINE:         call void @__spiketrap_enter(ptr @__spiketrap_desc.caller, {{.*}}), !dbg
; INLINE:         call void @__spiketrap_enter(ptr @__spiketrap_desc.callee, {{.*}}), !dbg
; INLINE:         call void @__spiketrap_exit(ptr @__spiketrap_desc.callee, {{.*}}), !dbg
; INLINE:         call void @__spiketrap_exit(ptr @__spiketrap_desc.caller, {{.*}}), !dbg
; INLINE-NOT:   call i32 @callee
define i32 @caller(i32 %x) !dbg !10 {
  %r = call i32 @callee(i32 %x), !dbg !11
  ret i32 %r, !dbg !11
}

; CHECK-DAG: [[ENTRY]] = !DILocation(line: 4, scope: [[SP]])
; CHECK-DAG: [[RET]] = !DILocation(line: 6, column: 3, scope: [[SP]])
; CHECK-DAG: [[NOLOC]] = !DILocation(line: 0, scope: [[SP]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, emissionKind: FullDebug)
!1 = !DIFile(filename: "t.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "callee", scope: !1, file: !1, line: 3, type: !4, scopeLine: 4, spFlags: DISPFlagDefinition, unit: !0)
!8 = !DILocation(line: 5, column: 7, scope: !5)
!9 = !DILocation(line: 6, column: 3, scope: !5)
!10 = distinct !DISubprogram(name: "caller", scope: !1, file: !1, line: 9, type: !4, scopeLine: 9, spFlags: DISPFlagDefinition, unit: !0)
!11 = !DILocation(line: 10, column: 10, scope: !10)
