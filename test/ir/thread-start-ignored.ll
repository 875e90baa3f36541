; RUN: %opt -spiketrap-split-body=false -passes=spiketrap -spiketrap-instrument-all -S %s | FileCheck %s

; A function the module starts a thread with (pthread_create's or
; thrd_create's start routine, std::thread's _M_run) runs for its thread's
; whole life: like main, it stays timed as the root of the thread's stacks,
; but its descriptor carries SPIKETRAP_DESC_IGNORE (1), or each thread would
; report it as a spike when it ends (worker: 1114113, with its one callee
; counted in the top bits). A function only called is not one.

target triple = "x86_64-unknown-linux-gnu"

; CHECK-DAG: @__spiketrap_desc.worker = private constant { {{[^}]*}} } { i32 1114113,
; CHECK-DAG: @__spiketrap_desc.c11_worker = private constant { {{[^}]*}} } { i32 65537,
; CHECK-DAG: @__spiketrap_desc._ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJPFvvEEEEEE6_M_runEv = private constant { {{[^}]*}} } { i32 65537,
; CHECK-DAG: @__spiketrap_desc.task = private constant { {{[^}]*}} } { i32 65536,

declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare i32 @thrd_create(ptr, ptr, ptr)

define ptr @worker(ptr %arg) {
  call void @task()
  ret ptr null
}

define i32 @c11_worker(ptr %arg) {
  ret i32 0
}

define void @_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJPFvvEEEEEE6_M_runEv(ptr %this) {
  ret void
}

define void @task() {
  ret void
}

define void @start(ptr %t) {
  %1 = call i32 @pthread_create(ptr %t, ptr null, ptr @worker, ptr null)
  %2 = call i32 @thrd_create(ptr %t, ptr @c11_worker, ptr null)
  ret void
}
