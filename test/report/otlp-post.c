// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env SPIKETRAP_OPTIONS="report=none threshold=10ms report_idle=1 report_json=%t.d/r.json" %t
// RUN: python3 %S/Inputs/check_otlp.py --serve %t.d/posted.json -- %spiketrap_report export --format otlp --endpoint @URL@ %t.d/r.json | FileCheck %s --check-prefix=POST
// RUN: python3 %S/Inputs/check_otlp.py %t.d/posted.json | FileCheck %s
// RUN: python3 %S/Inputs/check_otlp.py --serve %t.d/posted2.json -- %spiketrap_report export --format otlp -o %t.d/file.json --endpoint @URL@/v1/traces %t.d/r.json | FileCheck %s --check-prefix=POST
// RUN: cmp %t.d/posted2.json %t.d/file.json
// RUN: not python3 %S/Inputs/check_otlp.py --serve %t.d/refused.json --status 503 -- %spiketrap_report export --format otlp --endpoint @URL@ %t.d/r.json 2>&1 | FileCheck %s --check-prefix=REFUSED

// export --format otlp --endpoint POSTs each request to an OTLP/HTTP
// receiver (here one on 127.0.0.1 in Inputs/check_otlp.py): path
// /v1/traces, Content-Type application/json, the body a valid
// ExportTraceServiceRequest, the same as the file it writes with -o. A
// receiver that refuses says so and the export fails.

#include <time.h>

__attribute__((noinline)) void load_level(void) {
  struct timespec t = {0, 30000000};
  nanosleep(&t, 0);
}

int main(void) {
  load_level();
  return 0;
}

// POST:     POST /v1/traces application/json
// POST-NOT: POST

// CHECK:      resource service.name=otlp-post.c.tmp host.name={{[^ ]+}}{{$}}
// CHECK-NEXT: trace main > load_level{{( \(waited\))?$}}

// REFUSED: spiketrap-report: http://127.0.0.1:{{[0-9]+}}/v1/traces: HTTP 503

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
