#!/usr/bin/env bash
# readonly-dir.sh PROGRAM: runs PROGRAM with report=DIR/r.txt, where DIR is a
# directory the program may not create files in and r.txt a file it may
# write (as root: run as uid 65534 through setpriv, the directory root's).
# Prints the program's stderr, the file's first and last lines and what DIR
# holds.
set -eu
Dir=$(mktemp -d /tmp/spiketrap-rodir.XXXXXX)
trap 'chmod 755 "$Dir/ro"; rm -rf "$Dir"' EXIT
cp "$1" "$Dir/prog"
mkdir "$Dir/ro"
# Longer than the report: none of it may be left after it.
for i in $(seq 1000); do echo "old contents"; done > "$Dir/ro/r.txt"
chmod 755 "$Dir"
chmod 666 "$Dir/ro/r.txt"
chmod 555 "$Dir/ro"
Run=()
[ "$(id -u)" != 0 ] || Run=(setpriv --reuid=65534 --regid=65534 --clear-groups)
Err=$(env SPIKETRAP_OPTIONS="report=$Dir/ro/r.txt" "${Run[@]}" "$Dir/prog" 2>&1 || true)
echo "stderr: [$Err]"
echo "file: $(head -1 "$Dir/ro/r.txt")"
echo "last: $(tail -1 "$Dir/ro/r.txt")"
echo "dir:" $(ls -A "$Dir/ro")
