// REQUIRES: no-sanitizer
// UNSUPPORTED: emulated
// RUN: %clang -O2 -pthread -static %s -o %t.plain
// RUN: %clang %spiketrap_all -O2 -pthread -static %s %rtlib -o %t
// RUN: %clang %spiketrap_all -O2 -pthread -static-pie %s %rtlib -o %t.pie
// RUN: %run %t.plain > %t.plain.out
// RUN: %run %t > %t.out
// RUN: diff %t.plain.out %t.out
// RUN: %run %t.pie > %t.pie.out
// RUN: diff %t.plain.out %t.pie.out
// RUN: FileCheck %s < %t.out
// RUN: %clang %spiketrap_all -O2 -pthread -static %S/thread-renamed.c %rtlib -o %t.renamed
// RUN: %run %t.renamed 2>&1 | FileCheck %S/thread-renamed.c
// RUN: %clang %spiketrap_all -O2 -pthread -static-pie %S/thread-renamed.c %rtlib -o %t.renamed-pie
// RUN: %run %t.renamed-pie 2>&1 | FileCheck %S/thread-renamed.c

// pthread_setname_np in a statically linked program (-static, -static-pie)
// answers as in the plain static build (the calling thread, another
// thread, a name too long), and a thread renamed after its first hook call
// is reported by its new name (thread-renamed.c).

#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void *worker(void *Arg) {
  pthread_mutex_lock(&M); // held by main until it has renamed us
  pthread_mutex_unlock(&M);
  return Arg;
}

__attribute__((noinline)) void show(const char *What, pthread_t T) {
  char Name[32] = "";
  int R = pthread_getname_np(T, Name, sizeof(Name));
  printf("%s: %d %s\n", What, R, Name);
}

int main(void) {
  printf("rename self: %d\n", pthread_setname_np(pthread_self(), "renamed-main"));
  show("self", pthread_self());
  printf("name too long: %d\n",
         pthread_setname_np(pthread_self(), "a-name-of-18-chars"));
  pthread_mutex_lock(&M);
  pthread_t T;
  pthread_create(&T, 0, worker, 0);
  printf("rename other: %d\n", pthread_setname_np(T, "decoder-7"));
  show("other", T);
  pthread_mutex_unlock(&M);
  pthread_join(T, 0);
  return 0;
}

// CHECK: rename self: 0
// CHECK-NEXT: self: 0 renamed-main
// CHECK-NEXT: name too long: 34
// CHECK-NEXT: rename other: 0
// CHECK-NEXT: other: 0 decoder-7
