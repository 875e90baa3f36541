// RUN: %clang %spiketrap_all -g -O2 -fPIC -shared %S/Inputs/lib.c -o %t.so
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib '-Wl,--export-dynamic-symbol=__spiketrap_*' -o %t
// RUN: %run %t %t.so 2>/dev/null | FileCheck %s
// REQUIRES: switch-sites

// A dlopened library's sites reach the executable's runtime through a
// trampoline slot of their own (the library may lie far from it): its
// functions are switched off and on like the executable's. Unloading it
// while requests for its sites are pending forgets them; loaded again, its
// sites start timed.

#include "Inputs/site_state.h"
#include <dlfcn.h>
#include <stdio.h>

int main(int Argc, char **Argv) {
  for (int Round = 0; Round < 2; ++Round) {
    void *H = dlopen(Argv[1], RTLD_NOW);
    if (!H)
      return printf("dlopen: %s\n", dlerror()), 1;
    int (*Hot)(int) = (int (*)(int))dlsym(H, "lib_hot");
    int (*Loop)(int) = (int (*)(int))dlsym(H, "lib_loop");
    printf("round %d: %s\n", Round, site_state(Hot));
    Loop(5000);
    if (Round == 0)
      printf("after 5000 calls: %s\n", await_site(Hot, "off"));
    dlclose(H); // round 1: right after its switch-off was asked for
  }
  printf("done\n");
  return 0;
}

// CHECK: round 0: timed
// CHECK-NEXT: after 5000 calls: off
// CHECK-NEXT: round 1: timed
// CHECK-NEXT: done
