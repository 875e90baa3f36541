#!/usr/bin/env bash
# README command 1: install, build, compile docs/examples/game_loop.cpp with
# the plugin, run it, and show its spike report.
set -euo pipefail
cd "$(dirname "$0")/.."
utils/setup.sh
utils/build.sh
BUILD_DIR=${BUILD_DIR:-build}
. utils/llvm-version.sh
P=$BUILD_DIR/lib/SpikeTrap.so
set -x
clang++-$LLVM_VERSION -g -O2 -fplugin=$P -fpass-plugin=$P -Iruntime/include \
  docs/examples/game_loop.cpp $BUILD_DIR/lib/libspiketrap.a -o $BUILD_DIR/game_loop
$BUILD_DIR/game_loop
