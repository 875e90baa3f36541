// RUN: %clang %spiketrap -g -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=/dev/null %run %t 2>&1 | count 0
// RUN: env SPIKETRAP_OPTIONS=report=/dev/stdout %run %t 2> %t.err | FileCheck %s --check-prefix=TEXT
// RUN: count 0 < %t.err
// RUN: env SPIKETRAP_OPTIONS=report=none:report_json=/proc/self/fd/3 sh -c '%run %t 3> %t.fd3' 2> %t.err
// RUN: count 0 < %t.err
// RUN: FileCheck %s --check-prefix=JSON < %t.fd3
// RUN: env SPIKETRAP_OPTIONS=report=/dev/fd/3:report_json=/dev/fd/3 sh -c '%run %t 3> %t.fd3' 2> %t.err
// RUN: count 0 < %t.err
// RUN: FileCheck %s --check-prefixes=TEXT,JSON < %t.fd3
// RUN: env SPIKETRAP_OPTIONS=report=none:report_json=/proc/self/fd/9 %run %t 2>&1 | FileCheck %s --check-prefix=CLOSED
// RUN: bash %S/Inputs/readonly-dir.sh %t | FileCheck %s --check-prefix=RODIR
// DEFINE: %{name} = 012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: env SPIKETRAP_OPTIONS=report=%t.d/%{name} %run %t 2>&1 | count 0
// RUN: ls %t.d | FileCheck %s --check-prefix=LONG

// Report paths that are not a new or regular file in a writable directory
// (each went to stderr: "not a regular file"): /dev/null discards the
// report; /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N (symbolic
// links, not followed) write to that descriptor, one report after the other;
// a file the program may write in a directory it may not create files in is
// written in place; a name of 255 characters gets a shorter temporary file.

#include "../e2e/Inputs/spin.h"

__attribute__((noinline)) void hitch(void) { spin_ns(2000000); }

int main(void) {
  hitch();
  return 0;
}

// TEXT: ==== spiketrap report
// TEXT: spike: {{.*}} in hitch
// JSON: "format":"spiketrap-report"
// CLOSED: spiketrap: report_json: cannot write '/proc/self/fd/9': no such descriptor is open; writing it to stderr
// CLOSED-NEXT: "format":"spiketrap-report"
// RODIR: stderr: []
// RODIR-NEXT: file: ==== spiketrap report
// RODIR-NEXT: last: spiketrap: 1 spikes,
// RODIR-NEXT: dir: r.txt{{$}}
// LONG: {{^}}0123456789{{[0-9]+}}01234{{$}}
