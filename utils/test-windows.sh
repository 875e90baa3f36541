#!/usr/bin/env bash
# The runtime cross-built for Windows (x86_64-w64-mingw32, clang + lld) and
# the lit tests run against it under Wine (docs/windows.md). The host
# build's clang and plugin compile the tests' programs with
# --target=x86_64-w64-mingw32; they link the runtime of a runtime-only
# build (${BUILD_DIR}-mingw) and run under wine (utils/windows-run) in a
# Wine prefix of the build's own. Arguments: lit test paths (default:
# test/selection, test/options, test/spikes, test/runtime, test/api,
# test/adaptive). Tests Wine or Windows cannot run say
# `UNSUPPORTED: windows`, with the reason. Without test paths, real
# programs cross-built both ways follow (utils/realworld-windows.sh).
# Installs its packages with utils/setup.sh; when they cannot be had, says
# so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
BUILD_DIR=${BUILD_DIR:-build}
CROSS_DIR=${CROSS_DIR:-$BUILD_DIR-mingw}
win_pkgs=(mingw-w64 wine wine64)
if ! utils/setup.sh "${win_pkgs[@]}"; then
  echo "spiketrap windows: SKIPPED, the packages (${win_pkgs[*]})" \
       "could not be installed" >&2
  exit 0
fi
utils/build.sh # the host's plugin (nothing to do after utils/test.sh)
if [ ! -f "$CROSS_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$CROSS_DIR" -DSPIKETRAP_RUNTIME_ONLY=ON \
    -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-w64-mingw32.cmake \
    -DSPIKETRAP_LLVM_VERSION="$LLVM_VERSION" >/dev/null
fi
ninja -C "$CROSS_DIR" -j "${JOBS:-$(nproc)}"
build=$(cd "$BUILD_DIR" && pwd) cross=$(cd "$CROSS_DIR" && pwd)
# libstdc++ with POSIX threads: the Windows build's root of links
# (cmake/MingwPosixRoot.cmake; none without a *-posix GCC).
root=$cross/mingw-posix
[ -d "$root" ] || root=
lit=$(sed -n 's/^SPIKETRAP_LIT:FILEPATH=//p' "$BUILD_DIR/CMakeCache.txt")
# A prefix of this build's own, made before the tests run in parallel (its
# first start takes seconds), and one wineserver for all of them.
export WINEPREFIX="$cross/wine" WINEDEBUG=-all
[ -f "$WINEPREFIX/system.reg" ] || wineboot -i >/dev/null 2>&1 || true
wineserver -p 2>/dev/null || true
# Without test paths (CI's run), real programs follow the tests
# (utils/realworld-windows.sh; WINDOWS_REALWORLD=0 leaves them out).
realworld=${WINDOWS_REALWORLD:-$([ $# -gt 0 ] && echo 0 || echo 1)}
[ $# -gt 0 ] || set -- test/windows test/selection test/options test/spikes test/runtime \
  test/api test/adaptive
out=$(mktemp)
trap 'rm -f "$out"; wineserver -k 2>/dev/null || true' EXIT
status=0
python3 "$lit" -sv --no-progress-bar -j "${JOBS:-$(nproc)}" \
  --param spiketrap_site="$build/test/lit.site.cfg.py" \
  --param spiketrap_exec_root="$cross/lit" \
  --param spiketrap_target=x86_64-w64-mingw32 \
  --param spiketrap_runtime="$cross/lib/libspiketrap.a" \
  --param spiketrap_run="$PWD/utils/windows-run" \
  --param spiketrap_sysroot="$root" \
  "$@" 2>&1 | tee "$out" || status=$?
# lit's summary, as the plain line CI reads.
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$out" | head -1; }
p1=$(count Passed) p2=$(count 'Passed With Retry')
failed=$(count Failed) skipped=$(count Unsupported)
passed=$(( ${p1:-0} + ${p2:-0} ))
echo "windows: $passed passed, ${failed:-0} failed, ${skipped:-0} skipped"
if [ "$realworld" = 1 ]; then
  BUILD_DIR=$build CROSS_DIR=$cross utils/realworld-windows.sh || status=$?
fi
exit "$status"
