; RUN: %opt -passes=spiketrap -pass-remarks=spiketrap -pass-remarks-missed=spiketrap \
; RUN:   -disable-output %s 2>&1 | FileCheck %s --check-prefix=DEF
; RUN: %opt -passes=spiketrap -pass-remarks=spiketrap -pass-remarks-missed=spiketrap \
; RUN:   -spiketrap-min-instructions=20 -disable-output %s 2>&1 | FileCheck %s --check-prefix=MIN20
; RUN: %opt -passes=spiketrap -pass-remarks=spiketrap -pass-remarks-missed=spiketrap \
; RUN:   -spiketrap-min-instructions=20 -spiketrap-loops=false -disable-output %s 2>&1 | FileCheck %s --check-prefix=NOLOOPS
; RUN: %opt -passes=spiketrap -pass-remarks=spiketrap -pass-remarks-missed=spiketrap \
; RUN:   -spiketrap-min-instructions=20 -spiketrap-skip-leaves=false -disable-output %s 2>&1 | FileCheck %s --check-prefix=LEAVES
; RUN: %opt -passes=spiketrap -pass-remarks=spiketrap -pass-remarks-missed=spiketrap \
; RUN:   -spiketrap-instrument-all -disable-output %s 2>&1 | FileCheck %s --check-prefix=ALL
; RUN: %opt -passes=spiketrap -spiketrap-min-instructions=lots -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD

; The size rules, each with its switch: by default every function with a
; call or a loop is kept, however small (a small wrapper can block); only
; loop-free functions that call nothing are skipped (-spiketrap-skip-leaves;
; memcpy counts as a call). The opt-in -spiketrap-min-instructions skips
; smaller functions unless they have a loop (-spiketrap-loops, irreducible
; cycles count); -spiketrap-instrument-all overrides both. A bad number keeps
; the default.

; BAD: warning: spiketrap: ignoring -spiketrap-min-instructions='lots': expected a whole number of IR instructions; using 0

target triple = "x86_64-unknown-linux-gnu"

declare void @work()
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; DEF:     instrumented 'wrapper' (makes calls)
; MIN20:   not instrumented 'wrapper': too small: 2 IR instructions < -spiketrap-min-instructions=20, no loop
; NOLOOPS: not instrumented 'wrapper': too small
; LEAVES:  not instrumented 'wrapper': too small
; ALL:     instrumented 'wrapper' (-spiketrap-instrument-all)
define void @wrapper() {
  call void @work()
  ret void
}

; DEF:     instrumented 'copier' (makes calls)
; MIN20:   not instrumented 'copier': too small: 2 IR instructions
; ALL:     instrumented 'copier' (-spiketrap-instrument-all)
define void @copier(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  ret void
}

; DEF:     instrumented 'caller3' (makes calls)
; MIN20:   not instrumented 'caller3': too small: 4 IR instructions
define void @caller3() {
  call void @work()
  call void @work()
  call void @work()
  ret void
}

; DEF:     not instrumented 'leaf': leaf: no loop and no calls (-spiketrap-skip-leaves)
; MIN20:   not instrumented 'leaf': leaf: no loop and no calls
; NOLOOPS: not instrumented 'leaf': leaf
; LEAVES:  not instrumented 'leaf': too small: 5 IR instructions < -spiketrap-min-instructions=20, no loop
; ALL:     instrumented 'leaf' (-spiketrap-instrument-all)
define i32 @leaf(i32 %x) {
  %a = mul i32 %x, %x
  %b = add i32 %a, 7
  %c = mul i32 %b, %x
  %d = xor i32 %c, %a
  ret i32 %d
}

; DEF:     instrumented 'small_loop' (has a loop)
; MIN20:   instrumented 'small_loop' (has a loop)
; NOLOOPS: not instrumented 'small_loop': too small: 6 IR instructions < -spiketrap-min-instructions=20, loops not exempt (-spiketrap-loops=false)
; LEAVES:  instrumented 'small_loop' (has a loop)
; ALL:     instrumented 'small_loop' (-spiketrap-instrument-all)
define void @small_loop(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Two blocks jump into each other from the entry: no natural loop, a cycle.
; DEF:     instrumented 'irreducible' (has a loop)
; NOLOOPS: not instrumented 'irreducible': too small
define void @irreducible(i1 %c, i32 %n) {
entry:
  br i1 %c, label %a, label %b
a:
  %x = phi i32 [ 0, %entry ], [ %y, %b ]
  %x1 = add i32 %x, 1
  %ca = icmp ult i32 %x1, %n
  br i1 %ca, label %b, label %exit
b:
  %y = phi i32 [ 0, %entry ], [ %x1, %a ]
  %cb = icmp ult i32 %y, %n
  br i1 %cb, label %a, label %exit
exit:
  ret void
}
