#!/usr/bin/env bash
# CI: spiketrap on real projects (docs/realworld.md). Fetches the sources of
# small open-source projects from the Debian mirror the machine's apt already
# uses (a deb-src twin of its entry, in a private apt directory: the system's
# apt configuration is not touched), builds each twice without editing its
# build files -- with plain clang-$LLVM_VERSION, and instrumented through the
# installed spiketrap (CC/CXX=spiketrap-clang/spiketrap-clang++, or the CMake
# package's SpikeTrapInstrumentProject.cmake) -- runs its own test suite both
# ways and requires every test that passes plain to pass instrumented. Then a
# run of one of its test programs with a tiny threshold must print a report
# naming one of the project's functions, and a run in which nothing can spike
# must print on stderr exactly what the plain build prints. Two programs
# (Chocolate Doom, Redis) are built instrumented only and run as a user would;
# what their reports name is checked.
#
# A project whose source cannot be fetched (no network, package gone) is
# skipped with a note; that does not fail the run. Prints
# "N passed, N failed, N skipped".
#
#   SPIKETRAP_PREFIX     an installed spiketrap to use (e.g. /usr after
#                        utils/packaging.sh); default: ${BUILD_DIR:-build}
#                        installed into a temporary prefix
#   REALWORLD_PROJECTS   which projects (default: all of them)
#   REALWORLD_DIR        keep sources, builds and logs there (default: a
#                        temporary directory, removed at exit)
set -uo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-$(nproc)}
PROJECTS=${REALWORLD_PROJECTS:-cjson json-c tinyxml2 zlib popt libuv1 libevent chocolate-doom redis}
if [ -n "${REALWORLD_DIR:-}" ]; then
  work=$(mkdir -p "$REALWORLD_DIR" && cd "$REALWORLD_DIR" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
# The counters, sources, test results and checks (utils/realworld-lib.sh).
. utils/realworld-lib.sh

# make is the only build tool needed beyond the project's own (cmake, ninja).
utils/setup.sh make > /dev/null || exit 1

if [ -n "${SPIKETRAP_PREFIX:-}" ]; then
  prefix=$SPIKETRAP_PREFIX
else
  prefix=$work/prefix
  if ! cmake --install "$BUILD_DIR" --prefix "$prefix" > "$work/install.log" 2>&1; then
    echo "FAIL: install $BUILD_DIR (build it first: utils/build.sh)"
    cat "$work/install.log"
    echo "0 passed, 1 failed"
    exit 1
  fi
fi
plain_cc=clang-$LLVM_VERSION plain_cxx=clang++-$LLVM_VERSION
st_cc=$prefix/bin/spiketrap-clang st_cxx=$prefix/bin/spiketrap-clang++
sources_init

# Test results beyond ctest's ("<test name>\t<PASS|FAIL>" lines).
automake_results() { # automake_results <build dir>: after make check
  local f
  for f in $(find "$1" -name '*.trs' | sort); do
    printf '%s\t%s\n' "${f#"$1"/}" "$(sed -n 's/^:test-result: //p' "$f" | head -1)"
  done
}

# retry <name> <run1> <plain build dir> <instrumented build dir>: for a suite
# whose tests can be run one by one (<run1> <build dir> <test> succeeds when
# the test passes), a test that passed plain and not instrumented is run
# twice more instrumented (a loaded machine's timing); if it still fails,
# three times plain: a test that fails plain then too depends on the machine
# and is not counted. Updates <build dir>.results.
retry() {
  local name=$1 run1=$2 t n ok
  for t in $(grep $'\tPASS$' "$3.results" | cut -f1); do
    grep -qxF "$t"$'\tPASS' "$4.results" && continue
    ok=
    for n in 1 2; do "$run1" "$4" "$t" > /dev/null && { ok=1; break; }; done
    if [ -n "$ok" ]; then
      echo "$name: $t passed instrumented on a retry"
      sed -i "s|^$t\t.*$|$t\tPASS|" "$4.results"; continue
    fi
    for n in 1 2 3; do
      "$run1" "$3" "$t" > /dev/null && continue
      echo "$name: $t fails plain too on this machine (not counted)"
      sed -i "s|^$t\tPASS$|$t\tFAIL|" "$3.results"; break
    done
  done
}
# cmake_project <name> <wrappers|package> <src> <cmake args...>: both builds
# and both test runs. The instrumented build sets CC/CXX to the wrappers, or
# keeps clang and instruments every target through the CMake package
# (CMAKE_PROJECT_INCLUDE, docs/install.md).
cmake_project() {
  local name=$1 how=$2 src=$3; shift 3
  local b=$work/build/$name
  check "$name: build plain (CMake)" cmake_build "$src" "$b-plain" "$plain_cc" "$plain_cxx" "$@" || return
  if [ "$how" = package ]; then
    check "$name: build with -DCMAKE_PROJECT_INCLUDE=SpikeTrapInstrumentProject.cmake" \
      cmake_build "$src" "$b-st" "$plain_cc" "$plain_cxx" "$@" \
      -DCMAKE_PROJECT_INCLUDE="$prefix/lib/cmake/SpikeTrap/SpikeTrapInstrumentProject.cmake" || return
  else
    check "$name: build with CC/CXX=spiketrap-clang(++)" \
      cmake_build "$src" "$b-st" "$st_cc" "$st_cxx" "$@" || return
  fi
  run_suites "$name" ctest_results "$b"
}
# make_project <name> <build system> <build fn> <results fn> <src>: both
# builds (<build fn> <src> <dir> <cc>) and both test runs.
make_project() {
  local name=$1 what=$2 build=$3 results=$4 src=$5
  local b=$work/build/$name
  check "$name: build plain ($what)" "$build" "$src" "$b-plain" "$plain_cc" || return
  check "$name: build with CC=spiketrap-clang" "$build" "$src" "$b-st" "$st_cc" || return
  run_suites "$name" "$results" "$b"
}

# --- The projects ---------------------------------------------------------------
# A JSON parser in C: CMake, 19 Unity test programs; instrumented through
# the CMake package (it declares CMake 2.8.5: old policies).
project_cjson() {
  local src
  src=$(fetch cjson) || { skip cjson; return; }
  cmake_project cjson package "$src" || return
  local t=tests/parse_examples # reads ./inputs
  spike_check cjson '(^| )cJSON_Parse' "$src/tests" "$work/build/cjson-st/$t"
  quiet_check cjson "$src/tests" "$work/build/cjson-plain/$t" "$work/build/cjson-st/$t"
}
# A JSON library in C: CMake, 23 tests that compare each program's stdout
# with a file. json-c 0.16 adds -Werror, which clang 19's
# -Wstrict-prototypes trips in plain builds too: its own DISABLE_WERROR
# option. Its tests run under valgrind when installed, which cannot read
# clang 19's DWARF 5: USE_VALGRIND=0, as Debian's own build does.
project_json_c() {
  local src
  src=$(fetch json-c) || { skip json-c; return; }
  USE_VALGRIND=0 cmake_project json-c wrappers "$src" -DDISABLE_WERROR=ON || return
  local t=tests/test_parse
  spike_check json-c '(^| )json_tokener_parse' "$work/build/json-c-st/tests" "$work/build/json-c-st/$t"
  quiet_check json-c "$work/build/json-c-st/tests" "$work/build/json-c-plain/$t" "$work/build/json-c-st/$t"
}
# An XML parser in C++: CMake, one test program with 460-odd checks.
project_tinyxml2() {
  local src
  src=$(fetch tinyxml2) || { skip tinyxml2; return; }
  cmake_project tinyxml2 wrappers "$src" -Dtinyxml2_BUILD_TESTING=ON || return
  local t=xmltest # reads ./resources, writes ./resources/out
  # At 1 us its ~160,000 spikes fill the record arena before a LoadFile call
  # ends: the arena keeps the longest, so LoadFile's is among them.
  spike_check tinyxml2 '(^| )tinyxml2::XMLDocument::LoadFile' "$src" "$work/build/tinyxml2-st/$t"
  quiet_check tinyxml2 "$src" "$work/build/tinyxml2-plain/$t" "$work/build/tinyxml2-st/$t"
}
# zlib: its own configure script and Makefile, built in the source tree (a
# copy per build); `make test` is three targets: the static library, the
# shared one and the 64-bit file API.
zlib_build() ( # zlib_build <src> <dir> <cc>
  rm -rf "$2" && cp -r "$1" "$2" && cd "$2" && CC=$3 ./configure && make -j "$JOBS"
)
zlib_results() { # zlib_results <dir> <out>
  local t
  for t in teststatic testshared test64; do
    if make -C "$1" "$t" > "$1/$t.log" 2>&1; then echo "$t	PASS"; else echo "$t	FAIL"; fi
  done > "$2"
}
project_zlib() {
  local src b=$work/build/zlib
  src=$(fetch zlib) || { skip zlib; return; }
  make_project zlib "configure + make" zlib_build zlib_results "$src" || return
  spike_check zlib '(^| )(deflate|inflate)' "$b-st" ./example
  quiet_check zlib "$b-st" "$b-plain/example" "$b-st/example"
}
# popt: autoconf, automake and libtool (the released configure script), built
# out of the source tree. Its one automake test, testit.sh, runs 66 checks
# that compare a program's stdout with the expected text; it prints PASS or
# FAIL for each and always exits 0, so those lines are the results.
popt_build() ( # popt_build <src> <dir> <cc>
  rm -rf "$2" && mkdir -p "$2" && cd "$2" && CC=$3 "$1/configure" && make -j "$JOBS"
)
popt_results() { # popt_results <dir> <out>
  make -C "$1" check > "$1/check.log" 2>&1
  { automake_results "$1"
    sed -nE 's/^(PASS|FAIL):? (test[0-9]+ - [0-9]+)(:.*)?$/testit.sh: \2\t\1/p' "$1/tests/testit.sh.log"
  } > "$2"
}
project_popt() {
  local src b=$work/build/popt
  src=$(fetch popt) || { skip popt; return; }
  make_project popt "configure + make, libtool" popt_build popt_results "$src" || return
  # tests/test1 is libtool's wrapper script; it runs the real program.
  spike_check popt '(^| )popt' "$b-st/tests" ./test1 --help
  quiet_check popt "$b-st/tests" "$b-plain/tests/test1" "$b-st/tests/test1" --help
}

# libuv (C, CMake): the event loop under Node. Its test runner starts each
# of its ~400 tests as a child process (fork + exec) and the tests spawn
# processes, start threads (its threadpool's through a variable, some with
# the smallest stack), wait in epoll and on barriers, and juggle descriptors
# before exec: the instrumented runner runs with default options, reports to
# files. Each test is run by name, one at a time (tests share fixed ports);
# one that fails instrumented only is run twice more (a loaded machine's
# timing), and if it still fails, three times plain: a test that fails
# plain then too depends on the machine (tcp_close_while_connecting wants an
# unreachable network) and is not counted. The runner refuses root: as nobody then, from a directory of its own that
# nobody may use (the work directory may be private): the test program, a
# copy of its fixtures, the reports. Its path is kept in <build dir>.run.
libuv_as=()
[ "$(id -u)" = 0 ] && libuv_as=(runuser -u nobody --)
libuv_results() { # libuv_results <build dir> <out>
  local run
  run=$(mktemp -d "${TMPDIR:-/tmp}/spiketrap-libuv.XXXXXX") && echo "$run" > "$1.run" &&
    mkdir -p "$run/test" "$run/reports" && cp -r "$libuv_src/test/fixtures" "$run/test/" &&
    cp "$1/uv_run_tests_a" "$run/" && chmod -R a+rwX "$run" || return
  # Tests with helpers are listed as "name   (helpers: ...)".
  (cd "$run" && "${libuv_as[@]}" env SPIKETRAP_OPTIONS=report=none ./uv_run_tests_a --list) |
    sed -nE 's/^([a-z0-9_]+)( .*)?$/\1/p' > "$1.list"
  # (A failed test's runner exits 255, which would stop xargs: || true.)
  (cd "$run" && xargs -P 1 -I{} "${libuv_as[@]}" env SPIKETRAP_OPTIONS="report=$run/reports/r.%p.txt" \
     sh -c 'timeout 120 ./uv_run_tests_a "$0" || true' {} < "$1.list" > "$1.tap" 2>&1)
  sed -nE 's/^ok [0-9]+ - ([a-z0-9_]+).*/\1\tPASS/p; s/^not ok [0-9]+ - ([a-z0-9_]+).*/\1\tFAIL/p' "$1.tap" |
    sort -u > "$2"
}
# uv1 <build dir> <test>: runs one test again, as libuv_results did
uv1() {
  local run
  run=$(cat "$1.run") &&
    (cd "$run" && "${libuv_as[@]}" env SPIKETRAP_OPTIONS="report=$run/reports/r.%p.txt" \
       timeout 120 ./uv_run_tests_a "$2" > /dev/null 2>&1)
}
project_libuv1() {
  local b=$work/build/libuv1
  libuv_src=$(fetch libuv1) || { skip libuv1; return; }
  NINJA_TARGETS=uv_run_tests_a check "libuv1: build plain (CMake)" \
    cmake_build "$libuv_src" "$b-plain" "$plain_cc" "$plain_cxx" -DLIBUV_BUILD_TESTS=ON || return
  NINJA_TARGETS=uv_run_tests_a check "libuv1: build with CC=spiketrap-clang (CMake)" \
    cmake_build "$libuv_src" "$b-st" "$st_cc" "$st_cxx" -DLIBUV_BUILD_TESTS=ON || return
  instrumented_check libuv1 "$b-st"
  libuv_results "$b-plain" "$b-plain.results"
  libuv_results "$b-st" "$b-st.results"
  retry libuv1 uv1 "$b-plain" "$b-st"
  suite_check libuv1 "$b-plain.results" "$b-st.results"
  rm -rf "$(cat "$b-plain.run")" "$(cat "$b-st.run")"
}

# libevent (C, CMake): the event library under tmux, Tor and memcached.
# Its regress program holds ~330 tests (tinytest: each forked into a child of
# its own; they open sockets and pipes, start threads, take signals, resolve
# through a DNS server of their own, speak HTTP and time out timers); each is
# run by name, as libuv's are (--no-fork overflows its stack in a bufferevent
# test, plain too), with default options reporting to files, and so are the
# other test programs (those of its ctest run, with their default arguments:
# test-ratelim's checked runs judge rate deviations, a loaded machine's
# timing). Tests bind kernel-chosen ports: the plain and the instrumented
# runs go side by side.
libevent_progs="test-changelist test-closed test-dumpevents test-eof test-fdleak test-init test-ratelim test-time test-weof"
# le1 <build dir> <test>: runs one test, prints PASS, FAIL or SKIP (skipped
# or disabled by the test itself); succeeds when it passed.
le1() {
  local b=$1 t=$2 out rc opts="report=$1.reports/r.%p.txt"
  case $t in
    */*) out=$(cd "$b" && SPIKETRAP_OPTIONS=$opts timeout 120 bin/regress "$t" 2>&1) ;;
    # Its ctest run checks its output with this script.
    test-dumpevents) out=$(cd "$b" && SPIKETRAP_OPTIONS=$opts timeout 120 bin/test-dumpevents 2>&1 |
                             python3 "$libevent_src/test/check-dumpevents.py" 2>&1) ;;
    *) out=$(cd "$b" && SPIKETRAP_OPTIONS=$opts timeout 120 "bin/$t" 2>&1) ;;
  esac
  rc=$?
  printf '%s\n' "$out" > "$b.logs/${t//\//_}.log"
  if [ "$rc" != 0 ]; then echo FAIL; return 1; fi
  case $t in
    */*) case $out in
           *$'\n1 tests ok.'*) echo PASS ;;
           *$'\n0 tests ok.'*) echo SKIP; return 1 ;;
           *) echo FAIL; return 1 ;;
         esac ;;
    *) echo PASS ;;
  esac
}
libevent_results() { # libevent_results <build dir> <out>
  local t
  rm -rf "$1.logs" "$1.reports" && mkdir -p "$1.logs" "$1.reports" || return
  # Tests off by default (those that need the network) are not run by the
  # suite either.
  { (cd "$1" && SPIKETRAP_OPTIONS=report=none bin/regress --list-tests) | sed -nE 's/^    ([^ ]+)$/\1/p'
    printf '%s\n' $libevent_progs; } > "$1.list"
  while read -r t; do printf '%s\t%s\n' "$t" "$(le1 "$1" "$t")"; done < "$1.list" | sort > "$2"
}
project_libevent() {
  local b=$work/build/libevent
  local args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE=-O2 -DEVENT__DISABLE_OPENSSL=ON
              -DEVENT__DISABLE_MBEDTLS=ON -DEVENT__DISABLE_BENCHMARK=ON -DEVENT__DISABLE_SAMPLES=ON
              -DEVENT__LIBRARY_TYPE=STATIC)
  libevent_src=$(fetch libevent) || { skip libevent; return; }
  # The test programs only: not libevent.a, which compiles the sources of
  # libevent_core.a and libevent_extra.a a second time.
  NINJA_TARGETS="regress $libevent_progs" check "libevent: build plain (CMake)" \
    cmake_build "$libevent_src" "$b-plain" "$plain_cc" "$plain_cxx" "${args[@]}" || return
  NINJA_TARGETS="regress $libevent_progs" check "libevent: build with CC=spiketrap-clang (CMake)" \
    cmake_build "$libevent_src" "$b-st" "$st_cc" "$st_cxx" "${args[@]}" || return
  instrumented_check libevent "$b-st"
  libevent_results "$b-plain" "$b-plain.results" &
  libevent_results "$b-st" "$b-st.results"
  wait
  retry libevent le1 "$b-plain" "$b-st"
  suite_check libevent "$b-plain.results" "$b-st.results"
  # test-time: 20,000 timers of up to 50 ms, whose callbacks each add or
  # delete ten random ones (a fixed seed), run by one call of the event
  # loop until none is left (22,000 or 209,000 callbacks, by timing; the
  # loop is the program's driver, "(whole run)"). Each turn runs the due
  # timers' callbacks in one call of event_process_active_single_queue:
  # 90% of them took over 100 us here, the median 1.3 to 3 ms, the first
  # (the timers that fell due while main added them) 12 to 31 ms. (At 1 us
  # nearly every call spikes: it ran 2 minutes.)
  SPIKE_THRESHOLD=100us spike_check libevent '(^| )event_process_active_single_queue( |$)' "$b-st" bin/test-time
  quiet_check libevent "$b-st" "$b-plain/bin/test-time" "$b-st/bin/test-time"
}

# --- Programs run as a user would (issue 25) ------------------------------------
# Two programs nobody here wrote, built unchanged through the wrappers and run
# with default options: what their reports lead with is checked, not only
# that they build. The text report's summary rows: "<function> (file:line)"
# after the spiked/calls column.
summary_rows() { # summary_rows <text report> <n>: the first n rows' functions
  awk '/^spikes +worst/ { t = 1; next } t && /^$/ { exit } t && /^ +[0-9]+ /' "$1" |
    sed -E 's/^ *[0-9]+( +[0-9.]+ [a-z]+){4} +[0-9]+\/[0-9]+ +[0-9]+% +//' | head -"$2"
}
# report_check <name> <text report> <regex> <what>: a summary row names a
# function matching <regex>.
report_check() {
  if summary_rows "$2" 1000 | grep -E "$3" > /dev/null; then
    pass "$1: the report names $4"
  else
    fail "$1: the report names $4 (/$3/)"; head -30 "$2"
  fi
}

# json_check <name> <JSON report> <what> <python expression over r (the
# report), f (its functions by name), rows (the functions that spiked, in
# the summary's order) and spikes>: passes when the expression is true.
json_check() {
  if python3 - "$2" "$4" > "$log" 2>&1 <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
f = {x["name"]: x for x in r["functions"]}
rows = [x["name"] for x in r["functions"] if x["spikes"]]
spikes = r["spikes"]
names = [x["name"] for x in r["functions"]]
def idle_share(s):  # of a spike's own level: its idle waits
    return s["stack"][-1].get("idle_ns", 0) / max(s["duration_ns"], 1)
def slept(s):  # mostly in one sleep, idle or not
    w = s.get("longest_wait", {})
    return w.get("call") in ("nanosleep", "clock_nanosleep", "usleep", "sleep") and 2 * w["ns"] >= s["duration_ns"]
ok = eval(sys.argv[2])
print("first rows:", rows[:10])
print("idle:", [(x["name"], x["calls"]) for x in r["runs"][0].get("idle", [])][:5])
sys.exit(0 if ok else 1)
PY
  then pass "$1: $3"; else fail "$1: $3"; fi
}

# Chocolate Doom (C, CMake, SDL2) playing Freedoom's first demo as a timedemo
# (as fast as it can: no frame limiter) headless. -timedemo ends through
# I_Error: exit status 255 is its normal end.
doom_wad=/usr/share/games/doom/freedoom2.wad
project_chocolate_doom() {
  local src b=$work/build/chocolate-doom-st out=$work/chocolate-doom
  if ! utils/setup.sh libsdl2-dev libsdl2-mixer-dev libsdl2-net-dev freedoom > "$work/doom-setup.log" 2>&1; then
    skipped=$((skipped + 1)); echo "SKIP: chocolate-doom: its packages could not be installed ($(tail -1 "$work/doom-setup.log"))"; return
  fi
  src=$(fetch chocolate-doom) || { skip chocolate-doom; return; }
  NINJA_TARGETS=src/chocolate-doom check "chocolate-doom: build with CC/CXX=spiketrap-clang(++) (CMake)" \
    cmake_build "$src" "$b" "$st_cc" "$st_cxx" || return
  instrumented_check chocolate-doom "$b"
  mkdir -p "$out.home"
  (cd "$out.home" && HOME=$out.home SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy \
     SPIKETRAP_OPTIONS="report=$out.txt:report_json=$out.json" \
     timeout 300 "$b/src/chocolate-doom" -iwad "$doom_wad" -timedemo demo1 \
       -nosound -nomusic -nograbmouse -nogui > "$out.out" 2> "$out.err")
  local rc=$?
  # The result goes to stderr with the report (report= sends that elsewhere).
  if [ "$rc" = 255 ] && grep -qE '^timed [0-9]+ gametics' "$out.err" && [ -s "$out.txt" ]; then
    pass "chocolate-doom: the timedemo runs to its end ($(grep -E '^timed' "$out.err"))"
  else
    fail "chocolate-doom: the timedemo runs to its end (exit $rc)"; tail -n 5 "$out.out" "$out.err"; return
  fi
  report_check chocolate-doom "$out.txt" '(^|< )(P_SetupLevel|G_DoLoadLevel|W_[A-Za-z]+|R_Init[A-Za-z]*|wipe_[A-Za-z]+)( |$)' \
    "level setup, WAD loading or wipes"
  # The frame limiter's I_Sleep(1) and start-up's one-second SDL_Delay are
  # idle: no row of the first five is a sleep.
  json_check chocolate-doom "$out.json" "no deliberate sleep among the first five rows" \
    '"I_Sleep" not in rows[:5] and not any(slept(spikes[f[n]["worst_spike"]]) for n in rows[:5])'
}

# Redis (C, its own Makefile; MALLOC=libc: its bundled jemalloc's configure
# is not what is tested here) under redis-benchmark, then the commands known
# to stall it: KEYS and DEBUG DIGEST over many keys, BGSAVE (fork), FLUSHALL.
# Only the server writes a report; it listens on a free loopback port.
redis_build() ( # redis_build <src> <dir> <cc>
  rm -rf "$2" && cp -r "$1" "$2" && cd "$2" && make -j "$JOBS" CC="$3" MALLOC=libc
)
project_redis() {
  local src b=$work/build/redis-st out=$work/redis port dir pid i
  src=$(fetch redis) || { skip redis; return; }
  check "redis: build with make CC=spiketrap-clang" redis_build "$src" "$b" "$st_cc" || return
  instrumented_check redis "$b"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  dir=$out.data && rm -rf "$dir" && mkdir -p "$dir"
  SPIKETRAP_OPTIONS="report=$out.txt:report_json=$out.json" timeout 600 "$b/src/redis-server" \
    --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --enable-debug-command yes --loglevel warning > "$out.log" 2>&1 &
  pid=$!
  cli() { SPIKETRAP_OPTIONS=report=none timeout 300 "$b/src/redis-cli" -p "$port" "$@"; }
  for i in $(seq 100); do cli ping > /dev/null 2>&1 && break; sleep 0.1; done
  { SPIKETRAP_OPTIONS=report=none timeout 300 "$b/src/redis-benchmark" -p "$port" -q -n 20000 -c 20 \
      -t set,get,lpush,lpop,incr
    sleep 1 # the event loop idles
    cli debug populate 300000
    cli keys '*' | wc -l
    cli debug digest
    cli bgsave
    for i in $(seq 600); do cli info persistence | grep -q '^rdb_bgsave_in_progress:0' && break; sleep 0.1; done
    cli flushall
    cli shutdown nosave
  } > "$out.session" 2>&1
  wait "$pid"
  local rc=$?
  if [ "$rc" = 0 ] && grep -q '300002' "$out.session" && [ -s "$out.txt" ]; then
    pass "redis: benchmark, KEYS, DEBUG DIGEST, BGSAVE, FLUSHALL, shutdown"
  else
    fail "redis: benchmark, KEYS, DEBUG DIGEST, BGSAVE, FLUSHALL, shutdown (server exit $rc)"
    tail -n 20 "$out.session" "$out.log"; return
  fi
  # The culprit's row, or the chain of a culprit below it (the row may name
  # the switched-off code the command spent its time in: dictNext for KEYS,
  # xorObjectDigest for DEBUG DIGEST, _dictClear for FLUSHALL).
  report_check redis "$out.txt" '(^|< )keysCommand( |$)' 'KEYS (keysCommand)'
  report_check redis "$out.txt" '(^|< )computeDatasetDigest( |$)' 'DEBUG DIGEST (computeDatasetDigest)'
  report_check redis "$out.txt" '(^|< )flushallCommand( |$)' 'FLUSHALL (flushallCommand)'
  report_check redis "$out.txt" '(^|< )(redisFork|rdbSaveBackground)( |$)' 'the fork of BGSAVE (redisFork)'
  # The event loop's 100 ms ticks with nothing to do are idle calls. A tick
  # that waited and then worked past the threshold (a command, or a machine
  # so loaded that a few ms of work went by) is a spike by the rule: such
  # mostly-idle spikes stay a small share of the idle ticks.
  json_check redis "$out.json" "the idle event loop's ticks are idle calls, not spikes" \
    'sum(x["calls"] for x in r["runs"][0]["idle"] if x["name"] == "aeProcessEvents") >= 10 * max(1, sum(1 for s in spikes if names[s["function"]] == "aeProcessEvents" and idle_share(s) >= 0.5))'
}

echo "spiketrap on real projects, installed at $prefix; work in $work"
for p in $PROJECTS; do
  start=$SECONDS
  "project_${p//-/_}"
  echo "($p: $((SECONDS - start)) s)"
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
