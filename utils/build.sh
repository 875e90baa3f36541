#!/usr/bin/env bash
# Configures and builds spiketrap into ${BUILD_DIR:-build} with clang and Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
LLVM_VERSION=${LLVM_VERSION:-19}
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DLLVM_DIR=/usr/lib/llvm-$LLVM_VERSION/lib/cmake/llvm \
    -DCMAKE_C_COMPILER=clang-$LLVM_VERSION -DCMAKE_CXX_COMPILER=clang++-$LLVM_VERSION
fi
ninja -C "$BUILD_DIR" -j "${JOBS:-$(nproc)}"
