// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang %spiketrap -mllvm -spiketrap-list=entries.txt -c main.c -o /dev/null 2>&1 | FileCheck %s

// Entries the list format accepts but that can never match warn, with the
// file and line, and the compile goes on: a space after the colon (part of
// the pattern), a kind other than fun: and src:, a category.

// CHECK-DAG: warning: spiketrap: entries.txt:2: entry 'fun: tick' matches no name: the space after ':' is part of the pattern; write 'fun:tick'
// CHECK-DAG: warning: spiketrap: entries.txt:3: unknown entry kind 'bogus' in 'bogus:x' (ignored); expected fun:<name> or src:<file>
// CHECK-DAG: warning: spiketrap: entries.txt:4: unknown entry kind 'function' in 'function:tick' (ignored); expected fun:<name> or src:<file>
// CHECK-DAG: warning: spiketrap: entries.txt:5: entry 'src:*.c=init' matches no name: '=' starts a category, which spiketrap lists do not use
// CHECK-NOT: warning: spiketrap: entries.txt:{{[67]}}:
// CHECK:     4 warnings generated.

//--- main.c
int main(void) { return 0; }

//--- entries.txt
[never]
fun: tick
bogus:x
function:tick
src:*.c=init
fun:tick
src:*/game/*
