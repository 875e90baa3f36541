; RUN: %opt -spiketrap-switch=flag -passes=spiketrap,verify -spiketrap-instrument-all -S %s | FileCheck %s

; An instrumented function becomes a thunk that only tail-jumps, and its body
; moves, untouched, to an internal `.spiketrap` function: switched off, the
; thunk jumps to the body (the fall-through); on, to `.spiketrap_timed`, which
; calls enter, the body, exit. The body keeps F's attributes, comdat and debug
; info; thunk and timed path get artificial, renamed copies of the subprogram
; so that debuggers step through them.

target triple = "x86_64-unknown-linux-gnu"

$_Z4pickIiEii = comdat any

; The exit hook gets the descriptor under a second name: one address computed
; for both hooks would stay in a callee-saved register across the body's call.
; CHECK: @__spiketrap_desc._Z4pickIiEii.exit = private alias {{.*}}, ptr @__spiketrap_desc._Z4pickIiEii

; CHECK-LABEL: define linkonce_odr i32 @_Z4pickIiEii(
; CHECK-SAME:    i32 noundef %0) #[[THUNKATTRS:[0-9]+]] comdat !dbg [[THUNK:![0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[OFF:%.*]] = load volatile i32, ptr @__spiketrap_state._Z4pickIiEii, align 4
; CHECK-NEXT:    [[ON:%.*]] = icmp eq i32 [[OFF]], 0
; CHECK-NEXT:    br i1 [[ON]], label %timed, label %off, !dbg {{.*}}, !prof [[UNLIKELY:![0-9]+]]
; CHECK:       timed:
; CHECK-NEXT:    [[T0:%.*]] = musttail call i32 @_Z4pickIiEii.spiketrap_timed(i32 noundef %0), !dbg [[LOC:![0-9]+]]
; CHECK-NEXT:    ret i32 [[T0]], !dbg [[LOC]]
; CHECK:       off:
; CHECK-NEXT:    [[T1:%.*]] = musttail call i32 @_Z4pickIiEii.spiketrap(i32 noundef %0), !dbg [[LOC]]
; CHECK-NEXT:    ret i32 [[T1]], !dbg [[LOC]]
; CHECK-NEXT:  }

; The body: F's own blocks, internal, in F's comdat, noinline.
; CHECK-LABEL: define internal i32 @_Z4pickIiEii.spiketrap(
; CHECK-SAME:    i32 noundef %x) unnamed_addr #[[BODY:[0-9]+]] comdat($_Z4pickIiEii) !dbg [[SP:![0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %c = icmp eq i32 %x, 0, !dbg
; CHECK-NEXT:    %r = select i1 %c, i32 1, i32 %x
; CHECK-NEXT:    ret i32 %r

; CHECK-LABEL: define internal i32 @_Z4pickIiEii.spiketrap_timed(
; CHECK-SAME:    i32 noundef %0) unnamed_addr #[[TIMEDATTRS:[0-9]+]] comdat($_Z4pickIiEii) !dbg [[TIMED:![0-9]+]] {
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[F0:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_enter(ptr @__spiketrap_desc._Z4pickIiEii, ptr [[F0]]), !dbg [[TLOC:![0-9]+]]
; CHECK-NEXT:    [[R:%.*]] = call i32 @_Z4pickIiEii.spiketrap(i32 noundef %0), !dbg [[TLOC]]
; CHECK-NEXT:    [[F1:%.*]] = call ptr @llvm.addressofreturnaddress.p0()
; CHECK-NEXT:    call void @__spiketrap_exit(ptr @__spiketrap_desc._Z4pickIiEii.exit, ptr [[F1]]), !dbg [[TLOC]]
; CHECK-NEXT:    ret i32 [[R]]
define linkonce_odr i32 @_Z4pickIiEii(i32 noundef %x) nounwind uwtable comdat !dbg !6 {
entry:
  %c = icmp eq i32 %x, 0, !dbg !9
  %r = select i1 %c, i32 1, i32 %x
  ret i32 %r
}

; A nounwind thunk is never on the stack and needs no unwind table entry.
; CHECK: attributes #[[THUNKATTRS]] = { nounwind "spiketrap-instrumented" }
; CHECK: attributes #[[BODY]] = { noinline nounwind uwtable "spiketrap-instrumented" }
; The timed path: optsize, for no alignment padding (the code is the same).
; CHECK: attributes #[[TIMEDATTRS]] = { noinline nounwind optsize uwtable "spiketrap-instrumented" }
; CHECK-DAG: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9]+}}}
; CHECK-DAG: [[SP]] = distinct !DISubprogram(name: "pick<int>", linkageName: "_Z4pickIiEii", {{.*}}line: 3,{{.*}}retainedNodes:
; CHECK-DAG: [[THUNK]] = distinct !DISubprogram(name: "pick<int>.spiketrap_thunk", scope: {{.*}}line: 3,{{.*}}flags: DIFlagArtificial
; CHECK-DAG: [[TIMED]] = distinct !DISubprogram(name: "pick<int>.spiketrap_timed", scope: {{.*}}line: 3,{{.*}}flags: DIFlagArtificial
; CHECK-DAG: [[LOC]] = !DILocation(line: 4, scope: [[THUNK]])
; CHECK-DAG: [[TLOC]] = !DILocation(line: 4, scope: [[TIMED]])

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "pick.cpp", directory: "/src")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!6 = distinct !DISubprogram(name: "pick<int>", linkageName: "_Z4pickIiEii", scope: !1, file: !1, line: 3, type: !7, scopeLine: 4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !10)
!7 = !DISubroutineType(types: !8)
!8 = !{null}
!9 = !DILocation(line: 5, column: 7, scope: !6)
!10 = !{}
