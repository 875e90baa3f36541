#!/usr/bin/env bash
# CI: real programs cross-built for Windows and run under Wine
# (docs/windows.md, docs/realworld.md; run by utils/test-windows.sh after its
# tests). Each is built twice without editing any of its files, plain and
# instrumented, for x86_64-w64-mingw32 with the host's clang and lld:
#
#   sqlite    the SQLite amalgamation (npm's better-sqlite3, pinned in
#             utils/sqlite-source.sh) with the bench's driver
#             (utils/bench/src/sqlite_workload.c): same checksum both ways
#   game      the bench's game frame loop (utils/bench/src/game_workload.cpp):
#             same output both ways
#   cjson     cJSON's own 19 Unity test programs, CMake
#   tinyxml2  tinyxml2's own xmltest (460-odd checks), CMake
#
# The CMake projects are configured with cmake/x86_64-w64-mingw32.cmake
# (plain) or cmake/spiketrap-windows.cmake (instrumented): the one change.
# Their tests run through ctest under wine, and every test that passes plain
# must pass instrumented. Each program's report must name one of its own
# functions at a small threshold, and a run in which nothing can spike must
# print on stderr exactly what the plain build prints. The Debian sources
# come as in utils/realworld.sh (utils/realworld-lib.sh); a program whose
# source cannot be fetched is skipped with a note. Prints
# "windows real programs: N passed, N failed, N skipped".
#
#   BUILD_DIR          the host build (its lib/SpikeTrap.so); default build
#   CROSS_DIR          the Windows runtime's build, with the mingw-posix root
#                      and the Wine prefix utils/test-windows.sh makes;
#                      default $BUILD_DIR-mingw
#   WINDOWS_PROGRAMS   which programs (default: sqlite game cjson tinyxml2)
#   REALWORLD_DIR      keep sources, builds and logs there (default: a
#                      temporary directory, removed at exit)
set -uo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
BUILD_DIR=${BUILD_DIR:-build}
CROSS_DIR=${CROSS_DIR:-$BUILD_DIR-mingw}
JOBS=${JOBS:-$(nproc)}
PROGRAMS=${WINDOWS_PROGRAMS:-sqlite game cjson tinyxml2}
if [ -n "${REALWORLD_DIR:-}" ]; then
  work=$(mkdir -p "$REALWORLD_DIR" && cd "$REALWORLD_DIR" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
# The counters, sources, test results and checks (utils/realworld-lib.sh).
. utils/realworld-lib.sh
. utils/sqlite-source.sh
summary() { echo "windows real programs: $passed passed, $failed failed, $skipped skipped"; }

build=$(cd "$BUILD_DIR" 2> /dev/null && pwd) cross=$(cd "$CROSS_DIR" 2> /dev/null && pwd)
if [ ! -f "$build/lib/SpikeTrap.so" ] || [ ! -f "$cross/lib/libspiketrap.a" ] ||
   [ ! -d "$cross/mingw-posix" ]; then
  fail "no plugin in $BUILD_DIR or Windows runtime in $CROSS_DIR (run utils/test-windows.sh)"
  summary; exit 1
fi
export WINEPREFIX=$cross/wine WINEDEBUG=-all
[ -f "$WINEPREFIX/system.reg" ] || wineboot -i > /dev/null 2>&1 || true
cc=clang-$LLVM_VERSION cxx=clang++-$LLVM_VERSION
# As docs/windows.md builds a program: statically, with lld; C++ with the
# POSIX-threads libstdc++ (the root of links utils/test-windows.sh makes).
win=(--target=x86_64-w64-mingw32 -fuse-ld=lld -static -pthread --sysroot="$cross/mingw-posix")
st=(-fpass-plugin="$build/lib/SpikeTrap.so" -I"$PWD/runtime/include")
rt=("$cross/lib/libspiketrap.a" -lsynchronization)
mkdir -p "$work/build"

# wrap <dir>: beside each X.exe under <dir>, a script X that runs it under
# wine (utils/windows-run). ctest runs a test's command as written
# (cJSON's "./parse_examples"); only a target's command gets
# CMAKE_CROSSCOMPILING_EMULATOR.
wrap() {
  local e
  find "$1" -name '*.exe' | while read -r e; do
    printf '#!/bin/sh\nexec "%s" "$0.exe" "$@"\n' "$PWD/utils/windows-run" > "${e%.exe}"
    chmod +x "${e%.exe}"
  done
}

# build_pair <name> <compiler> <out dir> <flags and sources...>: the plain
# and the instrumented build, side by side (-j2 of the whole step), as
# <out dir>/<name>-plain.exe and <name>-st.exe.
build_pair() {
  local name=$1 c=$2 d=$3; shift 3
  mkdir -p "$d"
  "$c" "${win[@]}" "$@" -o "$d/$name-plain.exe" > "$d/plain.log" 2>&1 &
  local p=$!
  [ "$JOBS" -gt 1 ] || wait "$p"
  "$c" "${win[@]}" "${st[@]}" "$@" "${rt[@]}" -o "$d/$name-st.exe" > "$d/st.log" 2>&1
  local s=$?
  wait "$p" && pass "$name: build plain" || { fail "$name: build plain"; tail -20 "$d/plain.log"; }
  [ "$s" = 0 ] && pass "$name: build instrumented" || { fail "$name: build instrumented"; tail -20 "$d/st.log"; }
  [ -f "$d/$name-plain.exe" ] && [ -f "$d/$name-st.exe" ] && wrap "$d"
}
# same_output <name> <dir> <what> <regex> <args...>: plain and instrumented
# (nothing able to spike) print the same stdout, which matches <regex>.
same_output() {
  local name=$1 d=$2 what=$3 re=$4; shift 4
  "$d/$name-plain" "$@" > "$d/plain.out" 2> /dev/null
  SPIKETRAP_OPTIONS=$QUIET "$d/$name-st" "$@" > "$d/st.out" 2> /dev/null
  # (Windows text mode: lines end in CR LF.)
  if cmp -s "$d/plain.out" "$d/st.out" && tr -d '\r' < "$d/plain.out" | grep -E "$re" > /dev/null; then
    pass "$name: $what, the same both ways ($(head -1 "$d/st.out"))"
  else
    fail "$name: $what, the same both ways"; head -3 "$d/plain.out" "$d/st.out"
  fi
}

# SQLite, 20,000 rows (the bench's callgrind size) at -O2: compiling the
# amalgamation takes ~30 s a build. Its report at 200 us names SQLite's own
# functions (sqlite3_step, vdbeSorterSort, btree*), not only the driver's.
program_sqlite() {
  # The bench's copy (utils/bench/run.sh), else one of its own.
  local sq=$PWD/utils/bench/out/src/${SQLITE_NPM//[@\/]/-} d=$work/build/sqlite
  [ -f "$sq/sqlite3.c" ] || sq=$work/src/sqlite
  if [ ! -f "$sq/sqlite3.c" ] && ! sqlite_fetch "$sq" > "$work/fetch-sqlite.log" 2>&1; then
    local why
    why=$(command -v npm > /dev/null && tail -1 "$work/fetch-sqlite.log" || echo "no npm")
    skipped=$((skipped + 1)); echo "SKIP: sqlite: npm pack $SQLITE_NPM failed, not tested${why:+ ($why)}"
    return
  fi
  build_pair sqlite "$cc" "$d" -O2 -DSQLITE_THREADSAFE=0 -I"$sq" "$sq/sqlite3.c" \
    "$PWD/utils/bench/src/sqlite_workload.c" || return
  same_output sqlite "$d" "checksum" '^rows=20000 check=[0-9.]+$' 20000
  SPIKE_THRESHOLD=200us spike_check sqlite '(^| )(sqlite3|vdbe|btree)[A-Za-z0-9_]*( |$)' "$d" ./sqlite-st 20000
  quiet_check sqlite "$d" ./sqlite-plain ./sqlite-st 20000
}

# The game frame loop, 1,000 frames of 2,000 entities. frame() is inlined
# into main; each frame's longest call is renderFrame's draw-order sort
# (std::sort's loop, ~0.1 ms here): at 20 us its row names renderFrame.
program_game() {
  local d=$work/build/game
  build_pair game "$cxx" "$d" -g -O2 "$PWD/utils/bench/src/game_workload.cpp" || return
  same_output game "$d" "frames, score and events" '^frames=1000 score=[0-9.]+ events=[0-9]+$' 1000
  SPIKE_THRESHOLD=20us spike_check game 'renderFrame' "$d" ./game-st 1000
  quiet_check game "$d" ./game-plain ./game-st 1000
}

# cmake_pair <name> <src> <cmake args...>: the plain build (the mingw
# toolchain file) and the instrumented one (spiketrap-windows.cmake), their
# programs wrapped, and both ctest runs under wine compared. Both link
# statically (LDFLAGS, which CMake adds to either toolchain's flags), as
# spiketrap-windows.cmake does: a plain C++ program would need mingw's
# libstdc++ DLL, which Wine does not find (it exits with status 53).
cmake_pair() {
  local name=$1 src=$2; shift 2
  local b=$work/build/$name
  local -x LDFLAGS="-static${LDFLAGS:+ $LDFLAGS}"
  local args=(-DCMAKE_CROSSCOMPILING_EMULATOR="$PWD/utils/windows-run" "$@")
  check "$name: build plain (CMake, x86_64-w64-mingw32.cmake)" cmake_build "$src" "$b-plain" "$cc" "$cxx" \
    -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/x86_64-w64-mingw32.cmake" "${args[@]}" || return
  check "$name: build instrumented (CMake, spiketrap-windows.cmake)" cmake_build "$src" "$b-st" "$cc" "$cxx" \
    -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/spiketrap-windows.cmake" \
    -DSPIKETRAP_BUILD="$build" -DSPIKETRAP_WINDOWS_BUILD="$cross" "${args[@]}" || return
  wrap "$b-plain" && wrap "$b-st"
  run_suites "$name" ctest_results "$b"
}

# cJSON 1.7.15: static (an instrumented DLL is not supported yet). Two
# options of its own, given to both builds: its custom flags (-std=c89
# -Werror) reject Unity's 64-bit integers on Windows ("long long", since
# long is 32 bits there), and Unity disables weak symbols for clang on
# Windows, so its default setUp/tearDown need UNITY_WEAK_PRAGMA (cJSON adds
# the file that defines them for MSVC only).
program_cjson() {
  local src t=tests/parse_examples # reads ./inputs, copied into the build
  src=$(fetch cjson) || { skip cjson; return; }
  CFLAGS=-DUNITY_WEAK_PRAGMA cmake_pair cjson "$src" -DBUILD_SHARED_LIBS=OFF \
    -DENABLE_CUSTOM_COMPILER_FLAGS=OFF || return
  spike_check cjson '(^| )cJSON_Parse' "$work/build/cjson-st/tests" "$work/build/cjson-st/$t"
  quiet_check cjson "$work/build/cjson-st/tests" "$work/build/cjson-plain/$t" "$work/build/cjson-st/$t"
}
# tinyxml2 9.0.0: xmltest runs from the source tree (reads ./resources,
# writes ./resources/out).
program_tinyxml2() {
  local src
  src=$(fetch tinyxml2) || { skip tinyxml2; return; }
  cmake_pair tinyxml2 "$src" -Dtinyxml2_BUILD_TESTING=ON || return
  spike_check tinyxml2 '(^| )tinyxml2::XMLDocument::LoadFile' "$src" "$work/build/tinyxml2-st/xmltest"
  quiet_check tinyxml2 "$src" "$work/build/tinyxml2-plain/xmltest" "$work/build/tinyxml2-st/xmltest"
}

echo "windows real programs under wine; work in $work"
case " $PROGRAMS " in *" cjson "* | *" tinyxml2 "*) sources_init ;; esac
for p in $PROGRAMS; do
  start=$SECONDS
  "program_$p"
  echo "($p: $((SECONDS - start)) s)"
done
summary
[ "$failed" = 0 ]
