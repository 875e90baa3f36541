// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// RUN: %clang -O2 -g -pthread -static %S/waits-semantics.c -o %t.plain
// RUN: %clang %spiketrap_all -O2 -g -pthread -static %S/waits-semantics.c %rtlib -o %t
// RUN: %clang %spiketrap_all -O2 -g -pthread -static-pie %S/waits-semantics.c %rtlib -o %t.pie
// RUN: timeout 120 %run %t.plain > %t.plain.out
// RUN: timeout 120 %run %t > %t.out 2> %t.err
// RUN: diff %t.plain.out %t.out
// RUN: timeout 120 %run %t.pie > %t.pie.out 2> %t.pie.err
// RUN: diff %t.plain.out %t.pie.out
// RUN: FileCheck %S/waits-semantics.c < %t.out

// waits-semantics.c statically linked (-static and -static-pie), where the
// interposed calls cannot ask the dynamic linker for the C library's
// functions: the program prints what the plain static build prints (errors,
// timeouts, bad times, error-checking mutexes, a thread joining itself,
// cancellation inside a wait).
