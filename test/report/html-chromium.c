// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.profile && mkdir -p %t.profile
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --html %t.html -- %t 2>&1 | count 0
// RUN: not grep -E "(src|href)=|url\(|fetch\(|XMLHttpRequest|@import" %t.html
// RUN: chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=%t.profile --dump-dom file://%t.html 2>/dev/null | FileCheck %s

// The HTML report (spiketrap-report run --html) loads nothing from the network, and its
// script renders, in a real browser, the culprits explained, a timeline track
// per thread (time split by kind, a time axis) and the flame graph.

#include "../Inputs/spin.h"

__attribute__((noinline)) void stream_level(void) { spin_ns(20000000); }
__attribute__((noinline)) void game_tick(void) { stream_level(); }

int main(void) {
  game_tick();
  return 0;
}

// Rendered by the page's script (the raw file holds only the JSON).
// One row per culprit: game_tick spiked only because stream_level did.
// CHECK: <td class="fn">stream_level</td><td class="loc">{{.*}}html-chromium.c:13</td><td class="fn">game_tick</td></tr></tbody>
// CHECK: <div class="explain"><b>stream_level</b> {{[0-9.]+}} ms &gt; 1.000 ms, thread main, at {{.*}}: its own code, self {{[0-9.]+}} ms;{{( preempted [0-9.]+ [nmu]?s;)?}} made its callers spike: game_tick</div>
// CHECK: <div class="track-name">thread main (tid {{[0-9]+}})</div><svg
// CHECK-SAME: <rect {{.*}}class="running">
// CHECK-SAME: <title>game_tick: {{[0-9.]+}} ms &gt; 1.000 ms
// The time axis.
// CHECK: <svg width="{{[0-9]+}}" height="20" class="axis"><line {{.*}}<text x="2" y="15">0 ns</text>
// CHECK: <div class="frame" title="main: {{[0-9.]+}} ms"
// CHECK: <div class="frame" title="game_tick: {{[0-9.]+}} ms"
// CHECK: <div class="frame" title="stream_level: {{[0-9.]+}} ms"
