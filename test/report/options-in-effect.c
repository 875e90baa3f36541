// RUN: %clang %spiketrap -O2 %s %rtlib -o %t
// RUN: env SPIKETRAP_OPTIONS=report=none:report_json=%t.json:report_signal=INT:recent_calls=5000:threshold=2xs %run %t 2> %t.err
// RUN: python3 %S/../Inputs/report_json.py options %t.json report_signal recent_calls threshold | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// The JSON report's "options" are the values in effect: a value the runtime
// refused after parsing (a report_signal that must keep stopping the
// program, more recent calls than it keeps) is recorded as what it fell back
// to, as a value the parser refused is ("options_text" keeps what was
// written).

int main(void) { return 0; }

// CHECK: report_signal=none recent_calls=4096 threshold=1000000
// ERR: threshold=2xs: expected {{.*}}; keeping the default 1ms
// ERR: recent_calls=5000: at most 4096 calls per thread are kept; keeping 4096
// ERR: report_signal=INT: expected {{.*}}; keeping the default none
