#!/usr/bin/env bash
# Times writing every report format for 100,000 spikes (the bounds in
# docs/report-format.md): the runtime's text and JSON, then each format
# spiketrap-report makes from that JSON. Usage: utils/bench-report.sh
# [spikes]; needs a build in ${BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
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
clang-$LLVM_VERSION -O2 -g -fplugin=$P -fpass-plugin=$P -Iruntime/include \
  -Itest/Inputs "$T/many.c" "$B/lib/libspiketrap.a" -o "$T/many"
# threshold=1us: each mid() call and the leaf() in it spike, two spikes per
# iteration, three levels each. The runtime writes text and JSON.
for fmt in report report_json; do
  SPIKETRAP_OPTIONS="threshold=1us spike_memory=256M verbosity=1 report=none \
$fmt=$T/$fmt report_stacks=20" "$T/many" "$N" 2>&1 |
    sed -n "s/.*report of \([0-9]*\) spikes written in \([0-9]*\) ms/$fmt: \1 spikes in \2 ms/p"
  echo "  $(du -h "$T/$fmt" | cut -f1) written"
done
# spiketrap-report makes the other formats from the JSON (load included).
for fmt in trace folded html suggest-list; do
  S=$(date +%s%N)
  python3 -B utils/spiketrap-report convert --to $fmt -o "$T/out" "$T/report_json"
  echo "spiketrap-report convert --to $fmt: $(( ($(date +%s%N) - S) / 1000000 )) ms"
  echo "  $(du -h "$T/out" | cut -f1) written"
done
