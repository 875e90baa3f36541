# Shared by utils/realworld.sh and utils/realworld-windows.sh
# (docs/realworld.md): the counters and PASS/FAIL lines, the sources, the
# test results and the checks made of each project. Sourced after $work
# (the work directory) and $JOBS are set; the scripts print the summary.
# Nothing in an instrumented test run can take a minute in one call: the
# suites run with the hooks on and nothing to report, so suites that compare
# a program's output also check that a quiet run prints nothing.
QUIET=threshold=60s
passed=0 failed=0 skipped=0
log=$work/log
pass() { passed=$((passed + 1)); echo "PASS: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL: $1"; [ -f "$log" ] && tail -25 "$log"; }
check() { # check <name> <command...>: passes if the command succeeds
  if "${@:2}" > "$log" 2>&1; then pass "$1"; else fail "$1"; return 1; fi
}

# --- Sources -----------------------------------------------------------------
# deb-src twins of the machine's Debian entries, read by an apt that keeps
# its lists and downloads under $work (utils/debian-source.sh).
. utils/debian-source.sh
# sources_init: writes the entries and reads their indexes (once).
sources_init() { mkdir -p "$work/build" && debsrc_init "$work" "$work/apt-update.log"; }
# fetch <Debian source package>: unpacks the upstream tarball (the project as
# released, without Debian's patches) and prints its directory.
fetch() { debsrc_fetch "$1" "$work/src/$1" "$work/fetch-$1.log"; }

# --- Test results --------------------------------------------------------------
# Each way of running a suite writes "<test name>\t<PASS|FAIL>" lines.
ctest_results() { # ctest_results <build dir> <out>
  ctest --test-dir "$1" -j "$JOBS" --timeout 300 > "$1.ctest.log" 2>&1
  sed -nE 's/^ *([0-9]+\/[0-9]+ )?Test +#[0-9]+: ([^ ]+) \.+ *(\*\*\*)?([A-Za-z]+).*/\2\t\4/p' \
    "$1.ctest.log" | sed -E 's/\tPassed$/\tPASS/; t; s/\t.*$/\tFAIL/' | sort > "$2"
}

# compare <plain results> <instrumented results>: every test that passed plain
# passes instrumented; at least one passed plain.
compare() {
  local n f
  n=$(grep -c $'\tPASS$' "$1")
  f=$(grep $'\tPASS$' "$1" | cut -f1 | while read -r t; do
        grep -qxF "$t"$'\tPASS' "$2" || echo "$t"
      done)
  echo "$n tests pass plain, $(grep -c $'\tPASS$' "$2") instrumented (of $(wc -l < "$1") / $(wc -l < "$2"))"
  [ -n "$f" ] && { echo "passed plain, not instrumented:"; echo "$f"; }
  [ "$n" -gt 0 ] && [ -z "$f" ]
}

# spike_check <name> <regex> <dir> <command...>: with a 1 us threshold
# ($SPIKE_THRESHOLD, if set) the report (on stderr) names a function matching
# <regex>. (No grep -q after a pipe: under pipefail its early exit fails the
# writer with SIGPIPE.)
spike_check() {
  local name=$1 re=$2 dir=$3; shift 3
  rm -f "$work/spike.json"
  (cd "$dir" && SPIKETRAP_OPTIONS=threshold=${SPIKE_THRESHOLD:-1us}:report_json=$work/spike.json "$@" > /dev/null 2> "$work/spike.err")
  # A summary row, or a level of a recorded spike's stack: a row's chain of
  # callers is shortened with "..." past a few levels (a cold first run,
  # slower everywhere, has its culprits deeper).
  if grep -q '^==== spiketrap report' "$work/spike.err" &&
     { grep -E '^ +[0-9]+ ' "$work/spike.err" | grep -E "$re" > /dev/null ||
       python3 -c 'import json, re, sys
r = json.load(open(sys.argv[1]))
f = [x["name"] for x in r["functions"]]
sys.exit(0 if any(re.search(sys.argv[2], " " + f[l["function"]])
                  for s in r["spikes"] for l in s["stack"]) else 1)' "$work/spike.json" "$re"; }; then
    pass "$name: report names a function matching /$re/"
  else
    fail "$name: report names a function matching /$re/"; head -30 "$work/spike.err"
  fi
}
# quiet_check <name> <dir> <plain program> <instrumented program> [args...]:
# run from <dir> with nothing able to spike, the instrumented program's stderr
# is byte for byte the plain one's.
quiet_check() {
  local name=$1 dir=$2 pprog=$3 sprog=$4; shift 4
  (cd "$dir" && "$pprog" "$@" > /dev/null 2> "$work/quiet-plain.err")
  (cd "$dir" && SPIKETRAP_OPTIONS=$QUIET "$sprog" "$@" > /dev/null 2> "$work/quiet-st.err")
  if cmp -s "$work/quiet-plain.err" "$work/quiet-st.err"; then
    pass "$name: nothing spiked, stderr as plain ($(wc -c < "$work/quiet-st.err") bytes)"
  else
    fail "$name: nothing spiked, stderr as plain"
    diff "$work/quiet-plain.err" "$work/quiet-st.err" | head -20
  fi
}
# suite_check <name> <plain results> <instrumented results>
suite_check() {
  if compare "$2" "$3" > "$log" 2>&1; then
    pass "$1: every test that passes plain passes instrumented: $(head -1 "$log")"
  else
    fail "$1: every test that passes plain passes instrumented"
  fi
}

# instrumented_check <name> <build dir>: the instrumented build's objects
# really call the hooks (a wrapper that silently did nothing would pass the
# rest).
instrumented_check() {
  local n
  n=$(find "$2" \( -name '*.o' -o -name '*.obj' \) -exec grep -l __spiketrap_enter {} + 2> /dev/null | wc -l)
  if [ "$n" -gt 0 ]; then pass "$1: $n objects call the hooks"; else fail "$1: no object calls the hooks"; fi
}
# skip <name>: its source could not be fetched.
skip() {
  skipped=$((skipped + 1))
  echo "SKIP: $1: apt-get source $1 failed, not tested ($(grep -E '^(E|W):' "$work/fetch-$1.log" | tail -1))"
}

# --- Build kinds -------------------------------------------------------------
# cmake_build <src> <build dir> <cc> <cxx> [cmake args...]: every target,
# or those in $NINJA_TARGETS
cmake_build() {
  local src=$1 b=$2 cc=$3 cxx=$4; shift 4
  rm -rf "$b" && CC=$cc CXX=$cxx cmake -S "$src" -B "$b" -G Ninja "$@" &&
    ninja -C "$b" -j "$JOBS" ${NINJA_TARGETS:-}
}

# run_suites <name> <results fn> <build prefix>: the suite of <prefix>-plain
# and of <prefix>-st (<results fn> <dir> <out>), the second with nothing able
# to spike, compared.
run_suites() {
  "$2" "$3-plain" "$3-plain.results"
  SPIKETRAP_OPTIONS=$QUIET "$2" "$3-st" "$3-st.results"
  suite_check "$1" "$3-plain.results" "$3-st.results"
  instrumented_check "$1" "$3-st"
}
