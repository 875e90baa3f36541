// RUN: %clang %spiketrap_all -O1 -g %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: bash -c 'SPIKETRAP_OPTIONS=report_json=%t.d/r.json %t "$(printf "\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80 \xf5\xff \xe0\x80\xaf ok\xc3\xa9")"'
// RUN: python3 -m json.tool %t.d/r.json | FileCheck %s
// RUN: %spiketrap_report convert --to trace -o %t.d/t.json %t.d/r.json
// RUN: %spiketrap_report convert --to html -o %t.d/r.html %t.d/r.json
// RUN: python3 -m json.tool %t.d/t.json > /dev/null
// RUN: python3 %S/../Inputs/check_utf8.py %t.d/r.html | FileCheck %s --check-prefix=HTML

// Bytes that are not UTF-8 (a surrogate, overlong forms, a code point above
// U+10FFFF, 0xF5-0xFF leads) in argv and a thread name become U+FFFD in the
// JSON report, so it and the Chrome trace and HTML spiketrap-report makes
// from it are valid (issue 13, finding 6).

#include "../Inputs/spin.h"
#include "spiketrap.h"

__attribute__((noinline)) void work(void) { spin_ns(3000000); }

int main(int argc, char **argv) {
  SPIKETRAP_SET_THREAD_NAME(argc > 1 ? argv[1] : "none");
  work();
  return 0;
}

// CHECK: "command_line": [
// CHECK: "\ufffd\ufffd\ufffd \ufffd\ufffd \ufffd\ufffd\ufffd\ufffd \ufffd\ufffd \ufffd\ufffd\ufffd ok\u00e9"
// HTML: utf-8 ok
// CHECK: "thread": "\ufffd\ufffd\ufffd \ufffd\ufffd
