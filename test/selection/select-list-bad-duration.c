// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: not %clang %spiketrap -mllvm -spiketrap-list=durations.txt -c main.c -o /dev/null 2>&1 | FileCheck %s

// A threshold section whose duration is malformed, negative, 0 or over the
// maximum (a day: centuries would wrap when the runtime turns them into clock
// ticks) is reported as a bad duration, with the file and line, not as an
// unknown section.

// CHECK-DAG: error: spiketrap: durations.txt:1: section '[threshold=abc]': 'abc' is not a duration: expected one like 250ns, 500us, 16.6ms or 2s (a plain number is ms)
// CHECK-DAG: error: spiketrap: durations.txt:3: section '[threshold=-1]': '-1' is not a duration: expected one like
// CHECK-DAG: error: spiketrap: durations.txt:5: section '[threshold=0]': '0' must be greater than 0
// CHECK-DAG: error: spiketrap: durations.txt:7: section '[children-threshold=3153600000s]': '3153600000s' is longer than the maximum, 24 hours
// CHECK-NOT: unknown section
// CHECK:     4 errors generated.

//--- main.c
int main(void) { return 0; }

//--- durations.txt
[threshold=abc]
fun:a
[threshold=-1]
fun:b
[threshold=0]
fun:c
[children-threshold=3153600000s]
fun:d
[threshold=86400s]
fun:e
