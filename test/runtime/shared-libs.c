// RUN: %clang %spiketrap_all -g -O2 -fPIC -shared -DLIB_NAME=linked %S/Inputs/lib.c -o %t.linked.so
// RUN: %clang %spiketrap_all -g -O2 -fPIC -shared -DLIB_NAME=plugin %S/Inputs/lib.c -o %t.plugin.so
// RUN: %clang %spiketrap_all -g -O2 %s %t.linked.so %rtlib '-Wl,--export-dynamic-symbol=__spiketrap_*' -o %t
// RUN: %run %t %t.plugin.so 2>&1 | FileCheck %s
// UNSUPPORTED: windows
// (Windows: ELF shared libraries and dlopen (DLLs are not supported yet).)

// Instrumented code in a shared library linked at start-up and in a dlopened
// one runs against the executable's one runtime (exported with
// --export-dynamic-symbol): their spikes are reported with their stacks, and
// after dlclose has unmapped the plugin its spike still names its function
// and file (the runtime kept copies), instead of reading freed memory.

#include <dlfcn.h>
#include <stdio.h>

void linked_entry(void);

__attribute__((noinline)) void use_plugin(const char *Path) {
  void *H = dlopen(Path, RTLD_NOW);
  if (!H) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return;
  }
  void (*Entry)(void) = (void (*)(void))dlsym(H, "plugin_entry");
  Entry();
  dlclose(H);
  // Unmapped now: a later dlopen of the same path must map it afresh.
  if (dlopen(Path, RTLD_NOLOAD))
    fprintf(stderr, "still loaded\n");
}

int main(int Argc, char **Argv) {
  linked_entry();
  use_plugin(Argv[1]);
  return 0;
}

// CHECK-NOT: still loaded
// CHECK-DAG: spike: {{.*}} in linked_slow ({{.*}}lib.c:8)
// CHECK-DAG: spike: {{.*}} in plugin_slow ({{.*}}lib.c:8)
// CHECK-DAG: #1 use_plugin
// CHECK-DAG: #2 plugin_entry ({{.*}}lib.c:9)
