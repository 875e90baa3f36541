#!/usr/bin/env bash
# Configures and builds spiketrap into ${BUILD_DIR:-build} with clang and Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
BUILD_DIR=${BUILD_DIR:-build}
# A build directory is configured once, for one LLVM: never test the plugin
# of one LLVM with the tools of another.
if [ -f "$BUILD_DIR/CMakeCache.txt" ] &&
   ! grep -q "^CMAKE_CXX_COMPILER:.*clang++-$LLVM_VERSION\$" "$BUILD_DIR/CMakeCache.txt"; then
  echo "spiketrap build: $BUILD_DIR was configured for another LLVM than $LLVM_VERSION;" \
       "set BUILD_DIR to another directory (or remove this one)" >&2
  exit 1
fi
# SANITIZE=address,undefined (or thread) builds the runtime and the tests'
# programs with that sanitizer; use a BUILD_DIR of its own.
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DLLVM_DIR=/usr/lib/llvm-$LLVM_VERSION/lib/cmake/llvm \
    -DCMAKE_C_COMPILER=clang-$LLVM_VERSION -DCMAKE_CXX_COMPILER=clang++-$LLVM_VERSION \
    -DSPIKETRAP_SANITIZE="${SANITIZE:-}"
fi
ninja -C "$BUILD_DIR" -j "${JOBS:-$(nproc)}"
