; RUN: %opt -passes=spiketrap -pass-remarks=spiketrap -pass-remarks-missed=spiketrap \
; RUN:   -spiketrap-instrument-all -disable-output %s 2>&1 | FileCheck %s

; A thread start routine that only calls its thread's body (after inlining:
; no loop, and one call, deallocations and intrinsics aside, through a
; pointer or to a functor's operator()) is not timed: the body is its
; thread's first timed call, at the top of its stack, which the runtime takes
; for the root (runtime/idle-named-worker.cpp). std::thread's _M_run given a
; named function, a trampoline calling a function pointer, _M_run calling a
; functor's operator() are such. A start routine that calls a named function
; directly (a lambda's body inlined into _M_run), loops, or makes other calls
; too stays the timed root.

target triple = "x86_64-unknown-linux-gnu"

declare i32 @pthread_create(ptr, ptr, ptr, ptr)
declare void @_ZdlPvm(ptr, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @work()
declare void @_ZN7FunctorclEv(ptr)

; CHECK-DAG: not instrumented 'std::thread::_State_impl<std::thread::_Invoker<std::tuple<void (*)()>>>::_M_run()': never (a thread start routine that only calls its thread's body: the body is the root)
define void @_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJPFvvEEEEEE6_M_runEv(ptr %this) {
  %slot = getelementptr i8, ptr %this, i64 8
  %fn = load ptr, ptr %slot
  tail call void %fn()
  ret void
}

; An argument moved into the body and freed after it.
; CHECK-DAG: not instrumented 'std::thread::_State_impl<std::thread::_Invoker<std::tuple<void (*)(void*), void*>>>::_M_run()': never (a thread start routine
define void @_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJPFvPvES3_EEEEE6_M_runEv(ptr %this) {
  %tmp = alloca [32 x i8]
  %slot = getelementptr i8, ptr %this, i64 8
  %fn = load ptr, ptr %slot
  call void @llvm.memcpy.p0.p0.i64(ptr %tmp, ptr %this, i64 32, i1 false)
  call void %fn(ptr %tmp)
  %buf = load ptr, ptr %tmp
  call void @_ZdlPvm(ptr %buf, i64 32)
  ret void
}

; CHECK-DAG: not instrumented 'std::thread::_State_impl<std::thread::_Invoker<std::tuple<Functor>>>::_M_run()': never (a thread start routine
define void @_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJ7FunctorEEEEE6_M_runEv(ptr %this) {
  %f = getelementptr i8, ptr %this, i64 8
  tail call void @_ZN7FunctorclEv(ptr %f)
  ret void
}

; A lambda's body inlined: its own first call is not the body.
; CHECK-DAG: instrumented 'std::thread::_State_impl<std::thread::_Invoker<std::tuple<main::$_0>>>::_M_run()' (default for thread start routines)
define void @"_ZNSt6thread11_State_implINS_8_InvokerISt5tupleIJZ4mainE3$_0EEEEE6_M_runEv"(ptr %this) {
  call void @work()
  ret void
}

; CHECK-DAG: not instrumented 'trampoline': never (a thread start routine
define ptr @trampoline(ptr %arg) {
  %fn = load ptr, ptr %arg
  %r = call ptr %fn(ptr %arg)
  ret ptr %r
}

; CHECK-DAG: instrumented 'looping_trampoline' (default for thread start routines)
define ptr @looping_trampoline(ptr %arg) {
entry:
  br label %loop
loop:
  %fn = load ptr, ptr %arg
  %r = call ptr %fn(ptr %arg)
  %again = icmp eq ptr %r, null
  br i1 %again, label %loop, label %done
done:
  ret ptr %r
}

; CHECK-DAG: instrumented 'busy_trampoline' (default for thread start routines)
define ptr @busy_trampoline(ptr %arg) {
  call void @work()
  %fn = load ptr, ptr %arg
  %r = call ptr %fn(ptr %arg)
  ret ptr %r
}

; Not a start routine: an indirect call alone is nothing special.
; CHECK-DAG: instrumented 'calls_pointer' (-spiketrap-instrument-all)
define ptr @calls_pointer(ptr %arg) {
  %fn = load ptr, ptr %arg
  %r = call ptr %fn(ptr %arg)
  ret ptr %r
}

define void @start(ptr %t) {
  %1 = call i32 @pthread_create(ptr %t, ptr null, ptr @trampoline, ptr null)
  %2 = call i32 @pthread_create(ptr %t, ptr null, ptr @looping_trampoline, ptr null)
  %3 = call i32 @pthread_create(ptr %t, ptr null, ptr @busy_trampoline, ptr null)
  ret void
}
