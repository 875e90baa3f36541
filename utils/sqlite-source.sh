# The SQLite amalgamation (sourced by utils/bench/run.sh and
# utils/realworld-windows.sh): sqlite3.c and sqlite3.h as the npm package
# better-sqlite3 ships them, pinned, so results from different days compare
# the same SQLite. npm is the package's ordinary client.
#
#   sqlite_fetch <dir>   downloads the package with `npm pack` into <dir>
#                        and unpacks the two files there; fails when npm
#                        cannot (no npm, no registry)
SQLITE_NPM=${SQLITE_NPM:-better-sqlite3@12.11.1}
sqlite_fetch() {
  local tgz
  mkdir -p "$1" && command -v npm > /dev/null &&
    tgz=$(cd "$1" && npm pack --silent "$SQLITE_NPM" | tail -1) &&
    tar -xzf "$1/$tgz" -C "$1" --strip-components=3 \
      package/deps/sqlite3/sqlite3.c package/deps/sqlite3/sqlite3.h
}
