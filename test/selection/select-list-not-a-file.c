// RUN: rm -rf %t && mkdir %t && cd %t
// RUN: echo 'int main(void) { return 0; }' > main.c
// RUN: mkfifo fifo && mkdir dir && truncate -s 67108865 huge.txt
// A FIFO without a writer would block the compile in open(): the timeout
// turns that into a failure instead of a hung test.
// RUN: not timeout 120 %clang %spiketrap -mllvm -spiketrap-list=/dev/zero \
// RUN:   -mllvm -spiketrap-list=fifo,dir,huge.txt -c main.c -o /dev/null 2>&1 | FileCheck %s

// A list that is not a regular file (a device, a FIFO, a directory) or is
// larger than 64 MiB is refused with a message, without reading it: /dev/zero
// would fill memory, a FIFO would wait for a writer forever.

// CHECK-DAG: error: spiketrap: cannot read list '/dev/zero': not a regular file
// CHECK-DAG: error: spiketrap: cannot read list 'fifo': not a regular file
// CHECK-DAG: error: spiketrap: cannot read list 'dir': not a regular file
// CHECK-DAG: error: spiketrap: cannot read list 'huge.txt': larger than 64 MiB
// CHECK:     4 errors generated.
