// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: %run %t 2>&1 | FileCheck %s

// Ignoring at run time: a frame that ignores itself is timed (its callees
// keep it as parent) but not reported; a frame that ignores its children
// hides every callee; the conditional scope markers do the same only when
// their condition holds (PET_FUNCTION_CONDITIONAL_IGNORE). The functions
// with manual markers are SPIKETRAP_NEVER so the marker is their only frame.

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void leaf(void) { spin_ns(5000000); }

__attribute__((noinline)) void ignored_self(void) {
  SPIKETRAP_IGNORE_FRAME();
  spin_ns(5000000);
}

__attribute__((noinline)) void ignored_children(void) {
  SPIKETRAP_IGNORE_FRAME_CHILDREN();
  leaf();
}

SPIKETRAP_NEVER __attribute__((noinline)) void conditional(int Ignore) {
  SPIKETRAP_SECTION("cond");
  if (Ignore)
    SPIKETRAP_IGNORE_FRAME();
  spin_ns(5000000);
}

SPIKETRAP_NEVER __attribute__((noinline)) void scoped(int Ignore) {
  SPIKETRAP_FUNCTION_IGNORE_IF(Ignore);
  spin_ns(Ignore ? 5000000 : 0);
}

int main(void) {
  ignored_self();
  ignored_children();
  conditional(1);
  conditional(0);
  scoped(1);
  return 0;
}

// ignored_children itself runs 5 ms and is reported; leaf is not.
// CHECK-NOT: in leaf
// CHECK-NOT: in ignored_self
// CHECK-NOT: in scoped
// CHECK-DAG: spike: {{.*}} in ignored_children
// CHECK-DAG: spike: {{.*}} in cond (
// CHECK: spiketrap: 2 spikes
