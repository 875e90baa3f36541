#!/usr/bin/env bash
# CI smoke run of the benchmark suite: keeps it building and running (well
# under a minute). Prints the table; never judges the numbers.
set -uo pipefail
here=$(dirname "$0")
ok=1
"$here/run.sh" --quick "$@" || ok=0
# Where a workload's source cannot be had (CI has no Stockfish), the suite
# says so and goes on: STOCKFISH_DIR points nowhere, on every machine.
skip=$(STOCKFISH_DIR=/nonexistent BENCH_SKIP_BUILD=1 "$here/run.sh" --quick \
         --only stockfish --out "$here/out/smoke-skip" 2>&1)
if [ $? != 0 ] || ! grep -q "Stockfish skipped" <<< "$skip"; then
  echo "$skip" | tail -5
  ok=0
fi
if [ $ok = 1 ]; then
  echo "1 passed, 0 failed"
else
  echo "0 passed, 1 failed"
  exit 1
fi
