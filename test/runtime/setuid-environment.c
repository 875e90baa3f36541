// REQUIRES: root-setpriv
// UNSUPPORTED: emulated
// (qemu-user is not setuid: the kernel starts it without AT_SECURE.)
// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: bash %S/../Inputs/run-setuid.sh %t | FileCheck %s

// A setuid program ignores SPIKETRAP_OPTIONS and removes it from its
// environment, as glibc removes LD_*: a child it starts after making its
// privileges its own (setuid(0), then exec: not a secure process) must not
// honour the invoking user's report paths, which it would write as root.

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void) {
  const char *V = getenv("SPIKETRAP_OPTIONS");
  printf("program: %s\n", V ? V : "unset");
  fflush(stdout);
  if (setuid(0) != 0)
    return 1;
  execl("/bin/sh", "sh", "-c", "echo child: ${SPIKETRAP_OPTIONS-unset}",
        (char *)0);
  return 1;
}

// CHECK:      lines: 3
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS ignored: this is a privileged (setuid, setgid or capability) process
// CHECK-NEXT: program: unset
// CHECK-NEXT: child: unset
// CHECK-NEXT: files: prog{{$}}
