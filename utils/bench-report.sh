#!/usr/bin/env bash
# Times writing every report format for 100,000 spikes (the bound in
# docs/report-format.md: under a second each). Usage: utils/bench-report.sh
# [spikes]; needs a build in ${BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
B=$(realpath "${BUILD_DIR:-build}")
N=${1:-100000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat > "$T/many.c" <<'C'
#include <stdlib.h>
#include "spin.h"
__attribute__((noinline)) void leaf(void) { spin_ns(3000); }
__attribute__((noinline)) void mid(void) { leaf(); }
int main(int argc, char **argv) {
  for (long i = 0, n = atol(argv[1]) / 2; i < n; ++i)
    mid();
  return 0;
}
C
P=$B/lib/SpikeTrap.so
clang-${LLVM_VERSION:-19} -O2 -g -fplugin=$P -fpass-plugin=$P -Iruntime/include \
  -Itest/e2e/Inputs "$T/many.c" "$B/lib/libspiketrap.a" -o "$T/many"
# threshold=1us: each mid() call and the leaf() in it spike, two spikes per
# iteration, three levels each.
for fmt in report report_json report_trace report_folded report_html; do
  SPIKETRAP_OPTIONS="threshold=1us spike_memory=256M verbosity=1 report=none \
$fmt=$T/out report_stacks=20" "$T/many" "$N" 2>&1 |
    sed -n "s/.*report of \([0-9]*\) spikes written in \([0-9]*\) ms/$fmt: \1 spikes in \2 ms/p"
  echo "  $(du -h "$T/out" | cut -f1) written"
done
