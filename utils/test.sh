#!/usr/bin/env bash
# README command 2: install, build, and run every test (lit tests and runtime
# unit tests, all through ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
utils/setup.sh
utils/build.sh
# A hung test fails after 5 minutes instead of stalling the run.
ctest --test-dir "${BUILD_DIR:-build}" -j "${JOBS:-$(nproc)}" --timeout 300 --output-on-failure "$@"
