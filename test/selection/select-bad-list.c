// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: not %clang %spiketrap -mllvm -spiketrap-list=sections.txt,missing.txt \
// RUN:   -mllvm -spiketrap-list=syntax.txt -c main.c -o /dev/null 2>&1 | FileCheck %s

// A filter list that cannot be used is a compile error naming its file and
// line (or why it cannot be read); every bad list is reported, not just the
// first.

// CHECK-DAG: error: spiketrap: sections.txt:2: entry 'fun:early' is outside any section; expected [always], [never], [ignore], [ignore-children], [threshold=<duration>], [children-threshold=<duration>] or [channel=<name>]
// CHECK-DAG: error: spiketrap: sections.txt:4: unknown section '[alwyas]'; expected
// CHECK-DAG: error: spiketrap: sections.txt:7: section '[threshold=fast]': 'fast' is not a duration: expected one like 250ns, 500us, 16.6ms or 2s (a plain number is ms)
// CHECK-DAG: error: spiketrap: sections.txt:9: section '[children-threshold=0ms]': '0ms' must be greater than 0
// CHECK-DAG: error: spiketrap: cannot read list 'missing.txt': No such file or directory
// CHECK-DAG: error: spiketrap: invalid list 'syntax.txt': malformed line 3: 'no-colon-here'
// CHECK:     6 errors generated.

//--- main.c
int main(void) { return 0; }

//--- sections.txt
# a comment
fun:early
[always]
[alwyas]
fun:x

[threshold=fast]
fun:y
[children-threshold=0ms]
fun:z

//--- syntax.txt
[never]
fun:ok
no-colon-here
