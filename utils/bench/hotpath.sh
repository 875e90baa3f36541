#!/usr/bin/env bash
# Shows what one instrumented call costs in instructions: the disassembly of
# __spiketrap_enter/__spiketrap_exit from the runtime archive, and callgrind's
# instructions per call of each hook for the timing floor (c) and spiketrap
# (d). Run `utils/bench/run.sh --only calls` first (it builds out/calls/).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD_DIR=${BUILD_DIR:-build-bench}
D=utils/bench/out/calls
N=${FIB:-20}
for fn in __spiketrap_enter __spiketrap_exit; do
  objdump -d --no-show-raw-insn "$BUILD_DIR/lib/libspiketrap.a" |
    awk -v f="<$fn>:" '$2 == f {p = 1} /^$/ {p = 0} p'
  echo
done
for v in c d; do
  # Every call timed, and no spikes under valgrind's slowdown: the common path.
  SPIKETRAP_OPTIONS="threshold=100s adaptive=0" valgrind -q --tool=callgrind \
    --toggle-collect=run_rounds --callgrind-out-file=$D/hotpath.$v.out \
    $D/calls-$v $N 1 >$D/hotpath.$v.txt 2>&1
  calls=$(sed -n 's/.*calls=\([0-9]*\).*/\1/p' $D/hotpath.$v.txt)
  echo "variant ($v): instructions per call of fib ($calls calls)"
  callgrind_annotate $D/hotpath.$v.out 2>/dev/null |
    awk -v c="$calls" '$2 ~ /%\)$/ && $3 ~ /:/ {
      n = $1; gsub(",", "", n); printf "  %7.1f  %s\n", n / c, $3 }'
done
