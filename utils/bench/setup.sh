#!/usr/bin/env bash
# Installs what the benchmark suite needs (Debian 12): what utils/setup.sh
# installs, and the XRay runtime, uftrace, valgrind (instruction counts),
# GNU time (peak memory) and npm (to fetch the SQLite amalgamation).
set -euo pipefail
. "$(dirname "$0")/../llvm-version.sh"
pkgs=(libclang-rt-$LLVM_VERSION-dev uftrace valgrind time wrk)
# nodesource's nodejs ships npm itself and conflicts with Debian's npm.
command -v npm >/dev/null || pkgs+=(npm)
exec "$(dirname "$0")/../setup.sh" "${pkgs[@]}"
