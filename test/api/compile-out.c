// RUN: %clang -x c -O2 -S -emit-llvm -DSPIKETRAP_DISABLE -I%inc - -o - < %s | FileCheck %s --implicit-check-not=spiketrap
// RUN: %clangxx -x c++ -O2 -S -emit-llvm -DSPIKETRAP_DISABLE -I%inc - -o - < %s | FileCheck %s --implicit-check-not=spiketrap
// Inspects plain code generation; sanitizers add their own calls. The source
// comes from stdin so the checkout's path (which may contain "spiketrap")
// is not in the module's name.
// REQUIRES: no-sanitizer
// UNSUPPORTED: windows
// (Windows: its programs get test/Inputs/windows_stderr.h, which names spiketrap.)

// With SPIKETRAP_DISABLE every macro compiles to nothing and evaluates no
// argument: no spiketrap symbol is referenced and the side effects in the
// arguments are gone, so work() is a plain call to g().

#include "spiketrap.h"

int counter;
int bump(void) { return ++counter; }
void g(void);

// CHECK-LABEL: define {{.*}}work
// CHECK-NEXT: tail call void @{{.*}}g
// CHECK-NEXT: ret void
void work(void) {
  SPIKETRAP_FUNCTION();
  SPIKETRAP_FUNCTION_IF(bump());
  SPIKETRAP_SECTION("s");
  SPIKETRAP_SECTION_IF("s", bump());
  SPIKETRAP_SECTION_CHANNEL("s", "audio");
  SPIKETRAP_FUNCTION_IGNORE();
  SPIKETRAP_FUNCTION_IGNORE_CHILDREN();
  SPIKETRAP_FUNCTION_IGNORE_IF(bump());
  SPIKETRAP_FUNCTION_IGNORE_CHILDREN_IF(bump());
  SPIKETRAP_FUNCTION_PAUSED_IF(bump());
  SPIKETRAP_PAUSED_IF(bump());
  SPIKETRAP_SET_GLOBAL_THRESHOLD_MS(bump());
  SPIKETRAP_SET_FRAME_THRESHOLD_MS(bump());
  SPIKETRAP_SET_CHILDREN_THRESHOLD_MS(bump());
  SPIKETRAP_SET_PARENTS_THRESHOLD_MS(bump());
  SPIKETRAP_IGNORE_FRAME();
  SPIKETRAP_IGNORE_FRAME_CHILDREN();
  SPIKETRAP_MESSAGEF("%d", bump());
  SPIKETRAP_OT_MESSAGEF("%d", bump());
  SPIKETRAP_PAUSE();
  SPIKETRAP_UNPAUSE();
  SPIKETRAP_SET_THREAD_ACTIVE(bump());
  SPIKETRAP_SET_THREAD_NAME("x");
  SPIKETRAP_SET_CHANNEL_ENABLED("audio", bump());
  SPIKETRAP_FRAME_MARK();
  SPIKETRAP_SET_FRAME_BUDGET_MS(bump());
  g();
}
