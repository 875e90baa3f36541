// RUN: rm -rf %t.dir && mkdir -p %t.dir/lib %t.dir/root %t.dir/link
// RUN: %clang -g -O1 -fPIC -shared -Wl,--build-id=sha1 %S/Inputs/callback_lib.c -o %t.dir/full.so
// RUN: llvm-objcopy --only-keep-debug %t.dir/full.so %t.dir/callback.debug
// RUN: llvm-objcopy --strip-all %t.dir/full.so %t.dir/lib/libcb.so
// RUN: python3 %S/Inputs/place_debug.py %t.dir/lib/libcb.so %t.dir/callback.debug %t.dir/root
// RUN: llvm-objcopy --strip-all --add-gnu-debuglink=%t.dir/callback.debug %t.dir/full.so %t.dir/link/libcb.so
// RUN: cp %t.dir/callback.debug %t.dir/link/callback.debug
// RUN: %clang %spiketrap -g -O2 %s %t.dir/lib/libcb.so %rtlib -o %t
// RUN: %clang %spiketrap -g -O2 %s %t.dir/link/libcb.so %rtlib -o %t.link
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:debug_file_directory=%t.dir/root %run %t 2> %t.err
// RUN: FileCheck %s --check-prefix=NAMED < %t.err
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:debug_file_directory=%t.dir/root:report_json=%t.json %run %t 2> /dev/null
// RUN: python3 %S/Inputs/sampled.py %t.json on_item | FileCheck %s --check-prefix=JSON
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:debug_file_directory=%t.dir/none %run %t 2> %t.none.err
// RUN: FileCheck %s --check-prefix=BARE < %t.none.err
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:debug_file_directory=none %run %t.link 2> %t.link.err
// RUN: FileCheck %s --check-prefix=NAMED < %t.link.err
// RUN: cp %t.dir/lib/libcb.so %t.dir/link/callback.debug
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:sample=0:debug_file_directory=none %run %t.link 2> %t.crc.err
// RUN: FileCheck %s --check-prefix=BARE < %t.crc.err
// UNSUPPORTED: windows
// (Windows: ELF separate debug files.)

// A library shipped stripped of its symbol table, with its symbols in a
// separate debug file, as distributions install them (libc6-dbg:
// /usr/lib/debug/.build-id/xx/yyyy.debug): the frames between timed levels
// (here in the library, calling the program back) are named from that file,
// found by the library's build ID under debug_file_directory=, or by its
// .gnu_debuglink next to it (whose CRC must match: a file of that name that
// is not its debug file is not read). Without it, the static function is
// an offset in its file; the exported one keeps its dynamic symbol.

#include "../Inputs/spin.h"

typedef void (*ItemFn)(int);
void for_each_item(ItemFn Fn, int N);

volatile int Sink;

__attribute__((noinline)) void on_item(int I) {
  if (I == 3)
    spin_ns(60000000);
  Sink += I;
}

__attribute__((noinline)) void load(void) {
  for_each_item(on_item, 8);
  Sink += 1;
}

int main(void) {
  load();
  return 0;
}

// NAMED:      spike: {{.*}} in on_item ({{.*}}debug-files.c:[[#]]), threshold 20.000 ms
// NAMED:      #1  load (
// NAMED-NEXT:       ~ for_each_item ({{.*}}libcb.so)
// NAMED-NEXT:       ~ walk_items ({{.*}}libcb.so)
// NAMED-NEXT: #2  on_item (
// JSON: load > ~for_each_item [libcb.so] > ~walk_items [libcb.so] > on_item |
// BARE:       #1  load (
// BARE-NEXT:        ~ for_each_item ({{.*}}libcb.so)
// BARE-NEXT:        ~ 0x{{[0-9a-f]+}} ({{.*}}libcb.so)
// BARE-NEXT:  #2  on_item (
