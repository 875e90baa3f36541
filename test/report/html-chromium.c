// RUN: %clang %spiketrap -mllvm -spiketrap-instrument-all -g -O2 %s %rtlib -o %t
// RUN: rm -rf %t.profile && mkdir -p %t.profile
// RUN: env SPIKETRAP_OPTIONS=report=none %spiketrap_report run --html %t.html -- %t 2>&1 | count 0
// RUN: not grep -E "(src|href)=|url\(|fetch\(|XMLHttpRequest|@import" %t.html
// RUN: chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync --user-data-dir=%t.profile --dump-dom file://%t.html 2>/dev/null | FileCheck %s

// The HTML report (spiketrap-report run --html) loads nothing from the network, and its
// script renders, in a real browser, the summary table, one timeline track
// per thread and the flame graph, with the functions that spiked.

#include "../Inputs/spin.h"

__attribute__((noinline)) void stream_level(void) { spin_ns(20000000); }
__attribute__((noinline)) void game_tick(void) { stream_level(); }

int main(void) {
  game_tick();
  return 0;
}

// Rendered by the page's script (the raw file holds only the JSON).
// CHECK: <td class="fn">game_tick</td><td class="loc">{{.*}}html-chromium.c:14</td>
// CHECK: <td class="fn">stream_level</td><td class="loc">{{.*}}html-chromium.c:13</td>
// CHECK: <div class="track-name">thread main (tid {{[0-9]+}})</div><svg
// CHECK-SAME: <title>game_tick: {{[0-9.]+}} ms &gt; 1.000 ms
// CHECK: <div class="frame" title="main: {{[0-9.]+}} ms"
// CHECK: <div class="frame" title="game_tick: {{[0-9.]+}} ms"
// CHECK: <div class="frame" title="stream_level: {{[0-9.]+}} ms"
