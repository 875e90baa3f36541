#!/usr/bin/env bash
# CI smoke run of the benchmark suite: keeps it building and running (well
# under a minute). Prints the table; never judges the numbers.
set -uo pipefail
if "$(dirname "$0")/run.sh" --quick "$@"; then
  echo "1 passed, 0 failed"
else
  echo "0 passed, 1 failed"
  exit 1
fi
