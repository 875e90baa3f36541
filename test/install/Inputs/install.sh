#!/bin/sh
# install.sh <cmake> <build dir> <dir>: installs the build into <dir>/staged,
# then moves it to <dir>/prefix, so nothing can work through a path recorded
# at install time.
set -e
rm -rf "$3" && mkdir -p "$3"
"$1" --install "$2" --prefix "$3/staged" > "$3/install.log"
mv "$3/staged" "$3/prefix"
