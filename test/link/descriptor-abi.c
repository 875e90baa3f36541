// RUN: %clang %spiketrap -mllvm -spiketrap-switch=flag -g -O0 %s -o %t.O0
// RUN: %run %t.O0 | FileCheck %s
// RUN: %clang %spiketrap -mllvm -spiketrap-switch=flag -g -O2 %s -o %t.O2
// RUN: %run %t.O2 | FileCheck %s
// RUN: %clang %spiketrap -mllvm -spiketrap-switch=flag -O2 %s -o %t.nodebug
// RUN: %run %t.nodebug | FileCheck %s --check-prefix=NODEBUG

// The descriptors the pass emits, read through the C struct of spiketrap.h
// (both built from spiketrap_descriptor.inc): every field the pass sets is
// where the runtime reads it, and the off switch the pass's code tests is
// the one the runtime writes, in the descriptor's state. Hooks of our own
// stand in for the runtime, so functions are timed through thunks
// (-spiketrap-switch=flag); the entry field of patchable sites is
// tested in sites/. With debug info, file and line follow the descriptor and
// its extension (SPIKETRAP_DESC_LOCATED, 524288); without, nothing does.

#include "spiketrap.h"
#include <stdio.h>
#include <time.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
char CAT(__spiketrap_abi_v, SPIKETRAP_ABI_VERSION);

void __spiketrap_enter(spiketrap_desc *D, void *Frame) {
  printf("enter %s line=%u flags=%u callees=%u threshold=%llu children=%llu "
         "channel=%s timed_until=%u file=%s\n",
         __spiketrap_desc_name(D), __spiketrap_desc_line(D),
         D->flags & ((1u << SPIKETRAP_DESC_CALLEES_SHIFT) - 1),
         __spiketrap_desc_num_callees(D),
         (unsigned long long)__spiketrap_desc_threshold_ns(D),
         (unsigned long long)__spiketrap_desc_children_threshold_ns(D),
         __spiketrap_desc_channel(D) ? __spiketrap_desc_channel(D) : "-",
         __spiketrap_desc_timed_until(D), __spiketrap_desc_file(D));
  const int32_t *Callees = __spiketrap_desc_callees(D);
  for (uint32_t I = 0; I != __spiketrap_desc_num_callees(D); ++I) {
    const char *Entry = (const char *)&Callees[I];
    printf("  callee %s\n",
           __spiketrap_desc_name((const spiketrap_desc *)(Entry + Callees[I])));
  }
  // Switched off in its state: later calls must skip both hooks.
  __spiketrap_desc_state(D)->off = 1;
}
void __spiketrap_exit(spiketrap_desc *D, void *Frame) {
  printf("exit %s\n", __spiketrap_desc_name(D));
}
void __spiketrap_enter_late(spiketrap_desc *D, void *Frame) {}
void __spiketrap_object_unloading(const void *Addr) {} // the object's fini

void parent(void);
void leaf(void);

// CHECK:      enter main line=[[#@LINE+4]] flags=589825 callees=1 threshold=0 children=0 channel=- timed_until=0 file={{.*}}descriptor-abi.c
// CHECK-NEXT:   callee parent
// NODEBUG:      enter main line=0 flags=65537 callees=1 threshold=0 children=0 channel=- timed_until=0 file={{$}}
// Switched off: the second call prints nothing.
int main(void) {
  parent();
  parent();
  return 0;
}

// CHECK-NEXT: enter parent line=[[#@LINE+5]] flags=589841 callees=1 threshold=0 children=2000000 channel=- timed_until=0 file={{.*}}descriptor-abi.c
// CHECK-NEXT:   callee leaf
// NODEBUG:    enter parent line=0 flags=65553 callees=1 threshold=0 children=2000000 channel=- timed_until=0 file={{$}}
SPIKETRAP_CHILDREN_THRESHOLD_MS(2)
SPIKETRAP_IGNORE
__attribute__((noinline)) void parent(void) { leaf(); }

// CHECK-NEXT: enter leaf line=[[#@LINE+6]] flags=720918 callees=0 threshold=250000 children=0 channel=net timed_until=4294967295 file={{.*}}descriptor-abi.c
// CHECK-NEXT: exit leaf
// NODEBUG:    enter leaf line=0 flags=196630 callees=0 threshold=250000 children=0 channel=net timed_until=4294967295 file={{$}}
SPIKETRAP_THRESHOLD_US(250)
SPIKETRAP_CHANNEL("net")
SPIKETRAP_IGNORE_CHILDREN
__attribute__((noinline)) void leaf(void) {
  struct timespec Zero = {0, 0};
  nanosleep(&Zero, 0);
}

// CHECK-NEXT: exit parent
// CHECK-NEXT: exit main
// CHECK-NOT:  {{.}}
