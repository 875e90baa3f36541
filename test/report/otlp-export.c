// RUN: %clang %spiketrap_all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: env SPIKETRAP_OPTIONS="report=none threshold=100ms recent_calls=4 report_idle=1 report_json=%t.d/r.json" %t
// RUN: %spiketrap_report export --format otlp -o %t.a.otlp %t.d/r.json
// RUN: python3 %S/Inputs/check_otlp.py %t.a.otlp | FileCheck %s
// RUN: %spiketrap_report export --format otlp %t.d > %t.b.otlp
// RUN: cmp %t.a.otlp %t.b.otlp
// RUN: python3 %S/../Inputs/otlp_span_counts.py %t.a.otlp | FileCheck %s --check-prefix=SPANS
// RUN: not %spiketrap_report export --format otlp -o %t.d/no/such/dir.json %t.d/r.json 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// export --format otlp writes OTLP/JSON traces as the Collector's
// otlpjsonfile receiver reads them (one ExportTraceServiceRequest per
// line): one trace per spike, one span per stack level (root: the
// outermost), strictly checked by Inputs/check_otlp.py (hex ids, nanosecond
// strings, typed attributes, children within their parents). Ids are
// derived from the run and the spike: a second export (here of the
// directory holding the report) is the same bytes.

#include <time.h>

// Far below the threshold: a 1 ms sleep took over 10 ms on a loaded machine.
__attribute__((noinline)) void quick(void) { __asm__ volatile(""); }
// Sleeps: a spike at least this long whatever the machine's load, and a
// wait (nanosleep) on the spiking level.
__attribute__((noinline)) void load_level(void) {
  struct timespec t = {0, 300000000};
  nanosleep(&t, 0);
}
__attribute__((noinline)) void tick(void) {
  quick();
  load_level();
}

int main(void) {
  tick();
  return 0;
}

// CHECK:      resource service.name=otlp-export.c.tmp host.name={{[^ ]+}}{{$}}
// CHECK-NEXT: trace main > tick > load_level {{(\(waited\) )?}}(recent 1)
// CHECK-NEXT: trace main > tick {{(\(waited\) )?}}(recent 2)
// CHECK-NOT:  trace

// Two spikes: load_level's three levels, tick's two.
// SPANS: 5

// UNWRITABLE: spiketrap-report: {{.*}}no/such/dir.json: No such file or directory

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
