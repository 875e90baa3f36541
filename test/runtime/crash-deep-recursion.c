// UNSUPPORTED: windows
// (Windows: no crash report on Windows yet (docs/windows.md).)
// Sanitizers handle SIGSEGV themselves: the runtime leaves it to them.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report_json=%t.json not --crash %run %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %spiketrap_report validate %t.json | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// A crash 1000 calls deep in a recursion: past the 256 calls a thread keeps
// frames for, the crash report still lists the thread's open calls, by
// their ends: the outermost ones (the recursion's caller), how many are
// left out and which function they are, the innermost ones kept, and how
// many calls lie past those. It listed none.

static int *volatile Null;

// optnone: no tail call, no loop. Through a pointer, so each level is a
// timed call (a direct recursion is timed once).
int recurse(int N);
int (*volatile Recurse)(int) = recurse;
__attribute__((noinline, optnone)) int recurse(int N) {
  if (N == 1000)
    return *Null;
  return Recurse(N + 1) + 1;
}

__attribute__((noinline)) int run_away(void) { return recurse(0) + 1; }

int main(void) { return run_away(); }

// main, run_away and recurse 0 to 1000: 1003 calls, 256 with a frame.
// CHECK: spiketrap: fatal signal 11 (SIGSEGV) on thread {{[0-9]+}}; the reports follow
// CHECK: calls open when this report was written
// CHECK-NEXT: open: thread main (tid {{[0-9]+}}), 1003 calls deep: main {{[0-9.]+ [mun]?s}} > run_away {{[0-9.]+ [mun]?s}} > recurse {{[0-9.]+ [mun]?s}} > recurse {{[0-9.]+ [mun]?s}} > recurse {{[0-9.]+ [mun]?s}} > recurse {{[0-9.]+ [mun]?s}} > ... 244 calls, all recurse ... > recurse {{.*}} > recurse {{[0-9.]+ [mun]?s}} > ... 747 calls past depth 256, not kept{{$}}
// CHECK: spiketrap: 0 spikes, {{.*}} 747 calls past depth 256
// VALID: 1 valid, 0 invalid
// JSON: "open":[
// JSON-NEXT: {"run":0,"tid":{{[0-9]+}},"thread":"main","at_ns":{{[0-9]+}},"calls_past_depth":747,"stack":[{"function":
