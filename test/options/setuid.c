// REQUIRES: root-setpriv
// UNSUPPORTED: emulated
// (qemu-user is not setuid: the kernel starts it without AT_SECURE, so the
// program cannot know it is setuid.)
// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: bash %S/../Inputs/run-setuid.sh %t | FileCheck %s

// A setuid program ignores SPIKETRAP_OPTIONS (issue 13, finding 1): the
// invoking user must not choose paths it writes as root. One line says so,
// no file is written, and with nothing to report nothing else is printed.

int main(void) { return 0; }

// CHECK:      lines: 1
// CHECK-NEXT: spiketrap: SPIKETRAP_OPTIONS ignored: this is a privileged (setuid, setgid or capability) process
// CHECK-NEXT: files: prog{{$}}
