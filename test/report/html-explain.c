// Waits are noted only where no sanitizer intercepts the waiting calls.
// REQUIRES: no-sanitizer
// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 -pthread %s %rtlib -o %t
// RUN: rm -rf %t.profile && mkdir -p %t.profile
// RUN: env SPIKETRAP_OPTIONS=report=none:recent_calls=8:threshold=50ms:report_idle=1 %spiketrap_report run --html %t.html --trace %t.trace -- %run %t 2>&1 | count 0
// RUN: chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=%t.profile --dump-dom file://%t.html 2>/dev/null | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// What explains a spike reaches the HTML page and the Chrome trace: how long
// the spiking call waited and on what, the calls that ran before it
// (recent_calls=), and the calls still open when the report was written.
// A 50 ms threshold: a loaded machine must not make warm_up a spike.

#include "../Inputs/spin.h"
#include "../runtime/Inputs/blocked_worker.h"
#include <time.h>

__attribute__((noinline)) void warm_up(void) { spin_ns(10000); }
__attribute__((noinline)) void load_level(void) {
  struct timespec T = {0, 200 * 1000000};
  nanosleep(&T, 0);
}

int main(void) {
  if (start_blocked_worker())
    return 1;
  warm_up();
  load_level();
  return 0;
}

// The explanation is on the page, not only in a tooltip.
// CHECK: <div class="explain"><b>load_level</b> {{[0-9.]+}} ms &gt; 50.000 ms, {{.*}}longest wait {{[0-9.]+}} ms idle in nanosleep from load_level</div>
// CHECK: <title>load_level: {{[0-9.]+}} ms &gt; 50.000 ms at {{.*}}; waited {{[0-9.]+}} ms (longest {{[0-9.]+}} ms in nanosleep from load_level), running
// CHECK: <title>warm_up: {{.*}}, before a spike (recent_calls=)</title>
// CHECK: <h2>Calls open when the report was written</h2>
// CHECK-SAME: <div>thread {{.*}} (tid {{[0-9]+}}): worker_main {{[0-9.]+ [mun]?s}} &gt; wait_forever
// Its idle time is not in the flame graph unless asked for.
// CHECK: <input type="checkbox" id="with-idle">
// CHECK: <div class="frame" title="all spikes: 0 ns"
// CHECK-NOT: <div class="frame" title="load_level
// TRACE-DAG: "name": "warm_up", "cat": "recent"
// TRACE-DAG: "name": "wait_forever", "cat": "open"
// TRACE-DAG: "longest_wait": "{{[0-9]+}} ns in nanosleep from load_level"

// (report_idle=1: the sleeps that make these spikes are idle, not spikes,
// unless asked for: docs/selection.md.)
