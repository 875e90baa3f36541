// RUN: %clang %spiketrap_all -g -O2 -pthread -static %S/fibers.c %rtlib -o %t
// RUN: %run %t > %t.out 2>&1
// RUN: FileCheck %S/fibers.c --check-prefix=RESUMED < %t.out
// RUN: FileCheck %S/fibers.c --check-prefix=ABOVE < %t.out
// RUN: FileCheck %S/fibers.c --check-prefix=LINK < %t.out
// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: ucontext fibers are POSIX's (Windows fibers are not followed yet).)

// fibers.c statically linked: the pass's context-switch twins work without
// a dynamic C library too (the sanitizers cannot link statically).
