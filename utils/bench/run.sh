#!/usr/bin/env bash
# The benchmark suite (README "Benchmarks"): installs what it needs, builds
# spiketrap into $BUILD_DIR (default build-bench), fetches the SQLite
# amalgamation with `npm pack` and, for the Redis table, Redis's Debian
# source package with `apt-get source` (both cached in utils/bench/out/,
# git-ignored) and runs bench.py, which builds every variant, runs them and
# prints the table.
# Usage: utils/bench/run.sh [--quick] [--reps N]
#          [--only calls|sqlite|game|accuracy|redis|nginx|stockfish|windows]
# STOCKFISH_DIR=<unpacked sf_15.1> (default utils/bench/out/src/stockfish)
# adds the Stockfish table; without it, Stockfish is skipped with a note.
# BENCH_SKIP_BUILD=1 measures $BUILD_DIR as it is (e.g. a build of another
# checkout) instead of rebuilding it from this tree:
#   BENCH_SKIP_BUILD=1 BUILD_DIR=/path/to/build utils/bench/run.sh --only accuracy
set -euo pipefail
cd "$(dirname "$0")/../.."
utils/setup.sh
utils/bench/setup.sh
BUILD_DIR=${BUILD_DIR:-build-bench}
OUT=utils/bench/out
mkdir -p "$OUT"
if [ -z "${BENCH_SKIP_BUILD:-}" ]; then
  BUILD_DIR=$BUILD_DIR utils/build.sh >"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 1; }
fi

# Pinned, so tables from different days compare the same SQLite.
. utils/sqlite-source.sh
SQ=$OUT/src/${SQLITE_NPM//[@\/]/-}
sqlite=(--sqlite-dir "$SQ")
if [ ! -f "$SQ/sqlite3.c" ] && ! sqlite_fetch "$SQ"; then
  # No registry (offline machine): the rest of the suite still runs.
  echo "bench: could not fetch $SQLITE_NPM with npm; SQLite skipped" >&2
  sqlite=()
fi

# Redis: in a full run or when asked for (--only redis), not in --quick.
want_redis=1
for a in "$@"; do
  case $a in --quick | --only) want_redis=0 ;; esac
done
for a in "$@"; do [ "$a" = redis ] && want_redis=1; done
redis=()
RD=$OUT/src/redis
if [ "$want_redis" = 1 ]; then
  if [ ! -f "$RD/.fetched" ]; then
    . utils/debian-source.sh
    debsrc_init "$OUT/src" "$OUT/src/apt-update.log"
    rm -f "$RD.dir"
    debsrc_fetch redis "$RD" "$OUT/src/fetch-redis.log" > "$RD.dir" && touch "$RD/.fetched"
  fi
  if [ -f "$RD/.fetched" ]; then
    redis=(--redis-dir "$(cat "$RD.dir")")
  else
    echo "bench: apt-get source redis failed ($(grep -E '^(E|W):' "$OUT/src/fetch-redis.log" | tail -1)); Redis skipped" >&2
  fi
fi
# nginx: likewise (full runs and --only nginx), with wrk to load it.
want_nginx=1
for a in "$@"; do
  case $a in --quick | --only) want_nginx=0 ;; esac
done
for a in "$@"; do [ "$a" = nginx ] && want_nginx=1; done
nginx=()
NG=$OUT/src/nginx
if [ "$want_nginx" = 1 ]; then
  if [ ! -f "$NG/.fetched" ]; then
    . utils/debian-source.sh
    [ -n "${debsrc_apt_opts+x}" ] || debsrc_init "$OUT/src" "$OUT/src/apt-update.log"
    rm -f "$NG.dir"
    debsrc_fetch nginx "$NG" "$OUT/src/fetch-nginx.log" > "$NG.dir" && touch "$NG/.fetched"
  fi
  if [ -f "$NG/.fetched" ] && command -v wrk > /dev/null; then
    nginx=(--nginx-dir "$(cat "$NG.dir")")
  else
    echo "bench: apt-get source nginx or wrk failed; nginx skipped" >&2
  fi
fi
# Stockfish 15.1: likewise, but its source is never fetched here (upstream's
# tag sf_15.1, docs/performance.md): $STOCKFISH_DIR, else
# $OUT/src/stockfish. Its net comes from the source's src/ or is exported by
# Debian's stockfish package, installed when needed.
want_stockfish=1
for a in "$@"; do
  case $a in --quick | --only) want_stockfish=0 ;; esac
done
for a in "$@"; do [ "$a" = stockfish ] && want_stockfish=1; done
stockfish=()
SF=${STOCKFISH_DIR:-$OUT/src/stockfish}
if [ "$want_stockfish" = 1 ]; then
  if [ -f "$SF/src/Makefile" ] && [ -f "$SF/src/benchmark.cpp" ]; then
    if ! ls "$SF"/src/nn-*.nnue > /dev/null 2>&1 &&
       ! command -v stockfish > /dev/null && [ ! -x /usr/games/stockfish ]; then
      utils/setup.sh stockfish || echo "bench: could not install stockfish (for its net)" >&2
    fi
    stockfish=(--stockfish-dir "$SF")
  else
    echo "bench: Stockfish source not found ($SF/src/Makefile missing; set STOCKFISH_DIR to an unpacked sf_15.1); Stockfish skipped" >&2
  fi
fi
# Windows: the runtime cross-built into $BUILD_DIR-mingw (docs/windows.md)
# for the per-call cost under Wine; full runs and --only windows, when
# mingw-w64 and wine can be installed.
want_windows=1
for a in "$@"; do
  case $a in --quick | --only) want_windows=0 ;; esac
done
for a in "$@"; do [ "$a" = windows ] && want_windows=1; done
windows=()
WB=$BUILD_DIR-mingw
if [ "$want_windows" = 1 ]; then
  if utils/setup.sh mingw-w64 wine wine64 >"$OUT/windows-setup.log" 2>&1 &&
     { [ -f "$WB/build.ninja" ] ||
       cmake -G Ninja -S . -B "$WB" -DSPIKETRAP_RUNTIME_ONLY=ON \
         -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-w64-mingw32.cmake; } \
       >"$OUT/windows-build.log" 2>&1 &&
     ninja -C "$WB" >>"$OUT/windows-build.log" 2>&1; then
    windows=(--windows-build "$WB")
  else
    echo "bench: the Windows runtime could not be built ($OUT/windows-*.log); Windows skipped" >&2
  fi
fi
exec python3 utils/bench/bench.py --build-dir "$BUILD_DIR" "${sqlite[@]}" "${redis[@]}" "${nginx[@]}" "${stockfish[@]}" "${windows[@]}" "$@"
