// RUN: %clang -g -O1 -Wno-deprecated-declarations -static %S/signal-semantics.c -o %t.plain
// RUN: %clang %spiketrap_all -g -O1 -Wno-deprecated-declarations -static %S/signal-semantics.c %rtlib -o %t.inst
// RUN: %clang %spiketrap_all -g -O1 -Wno-deprecated-declarations -static-pie %S/signal-semantics.c %rtlib -o %t.pie
// RUN: %run %t.plain > %t.plain.out
// RUN: env SPIKETRAP_OPTIONS=threshold=10s %run %t.inst > %t.inst.out 2> %t.inst.err
// RUN: diff %t.plain.out %t.inst.out
// RUN: count 0 < %t.inst.err
// RUN: env SPIKETRAP_OPTIONS=threshold=10s %run %t.pie > %t.pie.out 2> %t.pie.err
// RUN: diff %t.plain.out %t.pie.out
// RUN: count 0 < %t.pie.err
// RUN: FileCheck %S/signal-semantics.c < %t.inst.out
// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated

// signal-semantics.c statically linked (-static and -static-pie): signal()
// and sigaction() behave as in the plain static build (no dynamic linker to
// find the C library's signal() through).
