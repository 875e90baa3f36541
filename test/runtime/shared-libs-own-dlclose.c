// RUN: %clang %spiketrap_all -g -O2 -fPIC -shared -DLIB_NAME=plugin %S/Inputs/lib.c -o %t.plugin.so
// RUN: %clang %spiketrap_all -g -O2 %s %rtlib '-Wl,--export-dynamic-symbol=__spiketrap_*' -ldl -o %t
// RUN: %run %t %t.plugin.so 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: ELF shared libraries and dlopen (DLLs are not supported yet).)

// The program defines dlclose itself (as a sanitizer's interceptor does), so
// the runtime's weak one is not linked: the unloaded plugin's destructor
// from the pass still has the runtime copy its descriptors, and the
// plugin's spike is reported by name after it is gone.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

int Closed;
int dlclose(void *H) {
  ++Closed;
  int (*Real)(void *) = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
  return Real(H);
}

int main(int Argc, char **Argv) {
  void *H = dlopen(Argv[1], RTLD_NOW);
  if (!H)
    return printf("dlopen: %s\n", dlerror()), 1;
  ((void (*)(void))dlsym(H, "plugin_entry"))();
  dlclose(H);
  if (dlopen(Argv[1], RTLD_NOLOAD))
    printf("still loaded\n");
  printf("closed %d time(s) by the program's dlclose\n", Closed);
  return 0;
}

// CHECK-NOT: still loaded
// CHECK-DAG: closed 1 time(s) by the program's dlclose
// CHECK-DAG: spike: {{.*}} in plugin_slow ({{.*}}lib.c:8)
// CHECK-DAG: #1 plugin_entry ({{.*}}lib.c:9)
