; RUN: %opt -passes=spiketrap -S %s | FileCheck %s

; A function that can block (sleep, lock, I/O, a system call) may wait once
; in a thousand calls for far longer than its threshold. One that enters the
; kernel on every call (sleep, I/O, a system call) costs little to time: its
; descriptor's flags say SPIKETRAP_DESC_WAITS_KERNEL (131072: timed always),
; adaptive mode never switches it off. One that takes a lock, usually uncontended and cheap, or
; waits in the kernel only on a rare path, is timed for 2 x 4096 calls
; (SPIKETRAP_DESC_WAITS_FAST, 262144) before adaptive mode may. Only the function that makes the
; call (after inlining), not its callers; pure computation has neither (flags 65536: SPIKETRAP_DESC_RELATIVE alone;
; a caller of one instrumented function adds 1 << 20, its callee count: 1114112).

target triple = "x86_64-unknown-linux-gnu"

declare i32 @nanosleep(ptr, ptr)
declare i32 @pthread_mutex_lock(ptr)
declare i64 @read(i32, ptr, i64)
declare void @_ZNSt11this_thread11__sleep_forENSt6chrono8durationIlSt5ratioILl1ELl1EEEENS1_IlS2_ILl1ELl1000000000EEEE(i64, i64)
declare void @compute()

; CHECK: @__spiketrap_desc.sleeper = private constant { {{[^}]*}} } { i32 196608,
define void @sleeper(ptr %ts) {
  call i32 @nanosleep(ptr %ts, ptr null)
  ret void
}

; CHECK: @__spiketrap_desc.locker = private constant { {{[^}]*}} } { i32 327680,
define void @locker(ptr %m) {
  call i32 @pthread_mutex_lock(ptr %m)
  ret void
}

; CHECK: @__spiketrap_desc.reader = private constant { {{[^}]*}} } { i32 196608,
define void @reader(ptr %buf) {
  call i64 @read(i32 0, ptr %buf, i64 16)
  ret void
}

; std::this_thread::sleep_for calls this out of line in libstdc++.
; CHECK: @__spiketrap_desc.cxx_sleeper = private constant { {{[^}]*}} } { i32 196608,
define void @cxx_sleeper() {
  call void @_ZNSt11this_thread11__sleep_forENSt6chrono8durationIlSt5ratioILl1ELl1EEEENS1_IlS2_ILl1ELl1000000000EEEE(i64 0, i64 1000)
  ret void
}

; CHECK: @__spiketrap_desc.raw_syscall = private constant { {{[^}]*}} } { i32 196608,
define void @raw_syscall() {
  call void asm sideeffect "syscall", "~{rax},~{rcx},~{r11}"()
  ret void
}

; Two levels above a blocking call, through direct calls: adaptive mode
; decides (a spike in sleeper is named at sleeper's level either way).
; CHECK: @__spiketrap_desc.outer = private constant { {{[^}]*}} } { i32 1114112,
define void @outer() {
  call void @middle()
  ret void
}
; CHECK: @__spiketrap_desc.middle = private constant { {{[^}]*}} } { i32 1114112,
define void @middle() {
  call void @sleeper(ptr null)
  ret void
}

; A kernel wait on a path the static estimate takes less than once in 8
; calls: learned like a lock (an interpreter's rare join).
; CHECK: @__spiketrap_desc.rare_wait = private constant { {{[^}]*}} } { i32 327680,
define void @rare_wait(i32 %op, ptr %ts) {
entry:
  %rare = icmp eq i32 %op, 7
  br i1 %rare, label %wait, label %done, !prof !0
wait:
  call i32 @nanosleep(ptr %ts, ptr null)
  br label %done
done:
  ret void
}
!0 = !{!"branch_weights", i32 1, i32 1000}

; CHECK: @__spiketrap_desc.pure = private constant { {{[^}]*}} } { i32 65536,
define void @pure() {
  call void @compute()
  ret void
}
