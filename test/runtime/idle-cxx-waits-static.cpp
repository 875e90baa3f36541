// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// (A static program under qemu-user is not what this checks.)
// RUN: %clangxx %spiketrap_all -O2 -g -pthread -static %S/idle-cxx-waits.cpp %rtlib -o %t
// RUN: %clangxx %spiketrap_all -O2 -g -pthread -static-pie %S/idle-cxx-waits.cpp %rtlib -o %t.pie
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t 2> %t.err
// RUN: FileCheck %S/idle-cxx-waits.cpp < %t.err
// RUN: FileCheck %S/idle-cxx-waits.cpp --check-prefix=UNTIL < %t.err
// RUN: env SPIKETRAP_OPTIONS=threshold=100ms %run %t.pie 2> %t.pie.err
// RUN: FileCheck %S/idle-cxx-waits.cpp < %t.pie.err
// RUN: FileCheck %S/idle-cxx-waits.cpp --check-prefix=UNTIL < %t.pie.err

// idle-cxx-waits.cpp statically linked (-static and -static-pie): the
// program's pthread_cond_clockwait reaches glibc's own (its name in libc.a,
// ___pthread_cond_clockwait) through the runtime's, and its waits are
// still noted and idle.
