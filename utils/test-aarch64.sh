#!/usr/bin/env bash
# The runtime cross-built for AArch64 and the lit tests run against it under
# qemu-aarch64 (README, "AArch64"). The host build's clang and plugin compile
# the tests' programs with --target=aarch64-linux-gnu; they link the runtime
# of a runtime-only build (${BUILD_DIR}-aarch64) and run under qemu with the
# Debian cross sysroot. Arguments: lit test paths (default: test/selection,
# test/options, test/spikes, test/link, test/house, test/runtime, test/api,
# test/adaptive, test/sites).
# Installs its packages with utils/setup.sh; when they cannot be had, says
# so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
BUILD_DIR=${BUILD_DIR:-build}
CROSS_DIR=${CROSS_DIR:-$BUILD_DIR-aarch64}
sysroot=/usr/aarch64-linux-gnu
cross_pkgs=(libc6-dev-arm64-cross libgcc-12-dev-arm64-cross binutils-aarch64-linux-gnu
            libstdc++-12-dev-arm64-cross qemu-user-static)
if ! utils/setup.sh "${cross_pkgs[@]}"; then
  echo "spiketrap aarch64: SKIPPED, the cross packages (${cross_pkgs[*]})" \
       "could not be installed" >&2
  exit 0
fi
utils/build.sh # the host's plugin (nothing to do after utils/test.sh)
if [ ! -f "$CROSS_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$CROSS_DIR" -DSPIKETRAP_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
    -DSPIKETRAP_LLVM_VERSION="$LLVM_VERSION" >/dev/null
fi
ninja -C "$CROSS_DIR" -j "${JOBS:-$(nproc)}"
build=$(cd "$BUILD_DIR" && pwd) cross=$(cd "$CROSS_DIR" && pwd)
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64)
lit=$(sed -n 's/^SPIKETRAP_LIT:FILEPATH=//p' "$BUILD_DIR/CMakeCache.txt")
[ $# -gt 0 ] || set -- test/selection test/options test/spikes test/link test/house \
  test/runtime test/api test/adaptive test/sites
out=$(mktemp)
trap 'rm -f "$out"' EXIT
status=0
python3 "$lit" -sv --no-progress-bar -j "${JOBS:-$(nproc)}" \
  --param spiketrap_site="$build/test/lit.site.cfg.py" \
  --param spiketrap_exec_root="$cross/lit" \
  --param spiketrap_target=aarch64-linux-gnu \
  --param spiketrap_runtime="$cross/lib/libspiketrap.a" \
  --param spiketrap_run="$qemu -L $sysroot" \
  "$@" 2>&1 | tee "$out" || status=$?
# lit's summary, as the plain line CI reads.
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$out" | head -1; }
p1=$(count Passed) p2=$(count 'Passed With Retry')
failed=$(count Failed) skipped=$(count Unsupported)
passed=$(( ${p1:-0} + ${p2:-0} ))
echo "aarch64: $passed passed, ${failed:-0} failed, ${skipped:-0} skipped"
exit "$status"
