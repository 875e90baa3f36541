// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: echo 'int main(void) { return 0; }' > main.c
// RUN: python3 %S/../Inputs/long_lists.py list-long-line > long.txt
// RUN: not %clang %spiketrap -mllvm -spiketrap-list=long.txt -c main.c -o /dev/null 2>&1 | FileCheck %s

// A message quotes at most 200 characters of a list's line: a binary file
// given by mistake has "lines" of megabytes.

// CHECK: error: spiketrap: long.txt:1: entry 'fun:{{x{196}[.]}}..' is outside any section; expected
