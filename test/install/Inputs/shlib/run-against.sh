#!/bin/sh
# run-against.sh <cc> <dir> <name>: builds main.c with <cc> against
# <dir>/libdemo.so and runs it: stdout to <dir>.<name>.out, stderr to
# <dir>.<name>.err.
set -e
$1 main.c -L"$2" -ldemo -Wl,-rpath,"$PWD/$2" -o "$2/$3"
"./$2/$3" > "$2.$3.out" 2> "$2.$3.err"
