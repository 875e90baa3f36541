#!/usr/bin/env bash
# run-setuid.sh PROGRAM: copies PROGRAM to a fresh directory as a root-owned
# setuid program, runs it as an unprivileged user (created if missing) with
# SPIKETRAP_OPTIONS asking for report files, prints its stderr, then lists
# what the run left in the directory (nothing but the program, if the
# environment was ignored).
set -eu
User=spiketrap-unpriv
id -u "$User" >/dev/null 2>&1 ||
  useradd --system --no-create-home --shell /usr/sbin/nologin "$User"
Dir=$(mktemp -d /tmp/spiketrap-setuid.XXXXXX)
trap 'rm -rf "$Dir"' EXIT
cp "$1" "$Dir/prog"
chown root:root "$Dir/prog"
chmod 4755 "$Dir/prog"
# The user can write the directory too: a file missing afterwards was not
# asked for, not merely refused by permissions.
chmod 1777 "$Dir"
cd "$Dir"
Out=$(env SPIKETRAP_OPTIONS="report=$Dir/r.txt:report_json=$Dir/r.json" \
  setpriv --reuid="$User" --regid="$User" --clear-groups ./prog 2>&1 || true)
echo "lines: $(printf '%s' "$Out" | grep -c '')"
printf '%s\n' "$Out"
echo "files:" $(ls "$Dir")
