#!/usr/bin/env bash
# Makes real.json and real2.json, two runs of fixture.c, with the build in
# ${BUILD_DIR:-build}: the report tool's unit tests read them as the
# runtime wrote them (the temporary directory's name replaced by /tmp/fixture).
set -euo pipefail
cd "$(dirname "$0")"
root=$(realpath ../../../..)
B=$(realpath "$root/${BUILD_DIR:-build}")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$B/lib/SpikeTrap.so
clang-${LLVM_VERSION:-19} -O1 -g -fplugin=$P -fpass-plugin=$P \
  -mllvm -spiketrap-instrument-all -I"$root/runtime/include" -pthread \
  fixture.c "$B/lib/libspiketrap.a" -o "$T/fixture"
for name in real real2; do
  (cd "$T" && SPIKETRAP_OPTIONS="threshold=2ms recent_calls=4 hang_after=100ms \
report=none report_json=$T/$name.json" ./fixture)
  sed "s|$T|/tmp/fixture|g; s|$root/||g" "$T/$name.json" > "$name.json"
done
