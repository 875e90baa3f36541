// RUN: %clang -g -O2 -fPIC -shared %S/Inputs/plain_lib.c -o %t.plain.so
// RUN: %clang %spiketrap -g -O2 %s %t.plain.so %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=threshold=20ms:report_json=%t.json %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: python3 %S/Inputs/sampled.py %t.json load_level | FileCheck %s --check-prefix=JSON
// REQUIRES: no-sanitizer
// (no sampling under a sanitizer: runtime/spiketrap_sampler.cpp)
// UNSUPPORTED: emulated
// (under qemu-user the samples do not agree reliably; not tried on AArch64
// hardware)
// ALLOW_RETRIES: 2

// Time in a library built without the plugin (a vendor's) is named by the
// samples: the exported function by its dynamic symbol, the static function
// it calls by the library's own symbol table, each with its object file,
// below the instrumented chain that called them. (300 ms of CPU, and
// retries: beside busy loops the kernel delivers a thread's CPU-clock
// ticks late and few, whoever arms them (a plain timer of 2.5 ms: 6 to 44
// ticks in 300 ms of CPU, the first up to 500 ms late); a run may get one
// sample or none.)

int plain_decode(int Size);

__attribute__((noinline)) int load_level(int N) { return plain_decode(N) + 1; }

int main(void) { return load_level(300) > 0 ? 0 : 1; }

// CHECK:      spike: {{.*}} in load_level ({{.*}}sample-library.c:[[#]]), threshold 20.000 ms
// CHECK:      #1  load_level (
// CHECK-NEXT:   sampled: [[#]] of [[#]] samples agree, the culprit ran for about {{[0-9.]+ ms}} (seen for {{[0-9.]+ ms}}):
// CHECK-NEXT:       ~ plain_decode ({{.*}}sample-library.c.tmp.plain.so)
// CHECK-NEXT:       ~ decode_block ({{.*}}sample-library.c.tmp.plain.so)
// JSON: load_level > ~plain_decode [sample-library.c.tmp.plain.so] > ~decode_block [sample-library.c.tmp.plain.so] | culprit decode_block [sample-library.c.tmp.plain.so]: ok
