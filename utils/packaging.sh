#!/usr/bin/env bash
# CI: the plain CMake build with the system's default toolchain (gcc, GNU ld,
# GNU objcopy), its runtime linked into C programs by gcc and clang, the
# .deb built with CPack and installed with apt, and the installed wrappers
# and CMake package used from /usr. Run as root on Debian 12 after
# utils/test.sh (which installed the packages and built ${BUILD_DIR:-build}
# with clang). Prints "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. utils/llvm-version.sh
CLANG_BUILD=${BUILD_DIR:-build}
GNU_BUILD=${GNU_BUILD_DIR:-build-gnu}
JOBS=${JOBS:-$(nproc)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
check() { # check <name> <command...>
  if "${@:2}" > "$work/log" 2>&1; then
    passed=$((passed + 1)); echo "PASS: $1"
  else
    failed=$((failed + 1)); echo "FAIL: $1"; tail -20 "$work/log"
  fi
}
cat > "$work/main.c" <<'C'
#include <spiketrap.h>
#include <time.h>
/* 30 ms of work (a sleep would be idle, not a spike). */
static void slow(void) {
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  do
    clock_gettime(CLOCK_MONOTONIC, &b);
  while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) <
         30000000L);
}
int main(void) { slow(); spiketrap_report(); return 0; }
C

# An instrumented shared library and a plain program that uses it.
cat > "$work/lib.c" <<'C'
__attribute__((noinline)) long lib_add(long a, long b) { return a + b; }
C
cat > "$work/uselib.c" <<'C'
#include <stdio.h>
long lib_add(long, long);
int main(void) { printf("%ld\n", lib_add(40, 2)); return 0; }
C

check "configure with the default compilers" \
  cmake -S . -B "$GNU_BUILD" -G Ninja -DSPIKETRAP_BUILD_TESTS=OFF
check "build with the default compilers" ninja -C "$GNU_BUILD" -j "$JOBS"
grep -E '^CMAKE_(CXX_COMPILER|LINKER|OBJCOPY):' "$GNU_BUILD/CMakeCache.txt"
for rt in "$GNU_BUILD" "$CLANG_BUILD"; do
  for cc in gcc "clang-$LLVM_VERSION"; do
    check "$cc links a C program with $rt's runtime" \
      "$cc" -Iruntime/include "$work/main.c" "$rt/lib/libspiketrap.a" -o "$work/c"
  done
done
# The gcc-built plugin loads into clang and instruments.
check "gcc-built plugin instruments with clang-$LLVM_VERSION" sh -c "
  clang-$LLVM_VERSION -fplugin=$GNU_BUILD/lib/SpikeTrap.so -fpass-plugin=$GNU_BUILD/lib/SpikeTrap.so \
    -Iruntime/include '$work/main.c' $GNU_BUILD/lib/libspiketrap.a -o '$work/p' && \
  '$work/p' 2>&1 | grep -q '^spike: .* in slow'"

# The gcc-built no-op hooks make an instrumented library any program runs.
check "gcc-built no-op hooks: a plain gcc program runs an instrumented library" sh -c "
  clang-$LLVM_VERSION -fplugin=$GNU_BUILD/lib/SpikeTrap.so -fpass-plugin=$GNU_BUILD/lib/SpikeTrap.so \
    -mllvm -spiketrap-instrument-all -fPIC -shared '$work/lib.c' $GNU_BUILD/lib/libspiketrap_noop.a \
    -Wl,-z,defs -o '$work/liblib.so' && \
  gcc '$work/uselib.c' -L'$work' -llib -Wl,-rpath,'$work' -o '$work/uselib' && \
  test \"\$('$work/uselib' 2>&1)\" = 42"

check "cpack -G DEB" sh -c "cd '$GNU_BUILD' && cpack -G DEB"
deb=$(ls "$GNU_BUILD"/spiketrap_*_amd64.deb 2>/dev/null | head -1)
check "apt install ./spiketrap_*.deb" \
  env DEBIAN_FRONTEND=noninteractive apt-get install -y "$(realpath "${deb:-missing.deb}")"
check "spiketrap-clang from /usr/bin" sh -c "
  cd '$work' && spiketrap-clang main.c -o w && ./w 2>&1 | grep -q '^spike: .* in slow'"
check "spiketrap-clang -shared from /usr/bin: a plain gcc program runs the library" sh -c "
  cd '$work' && spiketrap-clang -fPIC -shared -Wl,-z,defs lib.c -o libulib.so && \
  gcc uselib.c -L. -lulib -Wl,-rpath,'$work' -o useu && test \"\$(./useu 2>&1)\" = 42"
check "spiketrap-report run --html from /usr/bin" sh -c "
  cd '$work' && spiketrap-report run --html w.html -- ./w 2>/dev/null && \
  grep -q 'id=\"spiketrap-data\">{\"format\": \"spiketrap-report\"' w.html"
mkdir -p "$work/cm"
cp "$work/main.c" "$work/cm/"
cat > "$work/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(t C)
find_package(SpikeTrap CONFIG REQUIRED)
add_executable(t main.c)
target_link_libraries(t PRIVATE SpikeTrap::SpikeTrap)
CM
check "find_package(SpikeTrap) from /usr" sh -c "
  CC=clang-$LLVM_VERSION cmake -S '$work/cm' -B '$work/cmb' && cmake --build '$work/cmb' && \
  '$work/cmb/t' 2>&1 | grep -q '^spike: .* in slow'"
check "CC=spiketrap-clang cmake (compiler checks)" sh -c "
  cd '$work' && printf 'cmake_minimum_required(VERSION 3.20)\nproject(u C CXX)\nadd_executable(u main.c)\n' > cm/CMakeLists.txt && \
  CC=spiketrap-clang CXX=spiketrap-clang++ cmake -S cm -B cmw && cmake --build cmw && \
  ./cmw/u 2>&1 | grep -q '^spike: .* in slow'"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
