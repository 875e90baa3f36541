# Debian source packages without touching the system's apt configuration
# (sourced by utils/realworld.sh and utils/bench/run.sh; docs/realworld.md,
# "Sources"). A deb-src twin of each Debian entry of the machine's apt
# sources (deb822 .sources files and one-line .list files) is written into a
# private apt directory, which also keeps the lists and downloads.
#
#   debsrc_init <dir> <log>    writes the entries under <dir>/apt and runs
#                              apt-get update (its output in <log>); prints
#                              a note when an index could not be fetched
#   debsrc_fetch <pkg> <dir> <log>
#                              downloads the source package into <dir>
#                              (emptied first), unpacks its upstream tarball
#                              (the project as released, without Debian's
#                              patches) and prints the unpacked directory;
#                              fails when it cannot (the apt error in <log>)

debsrc_init() {
  local apt_dir f
  # apt reads a relative Dir:: option under /etc/apt.
  apt_dir=$(mkdir -p "$1" && cd "$1" && pwd)/apt
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/parts"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk 'BEGIN { RS = ""; ORS = "\n\n" }
         /(^|\n)URIs:[^\n]*debian/ && /(^|\n)Types:[^\n]*deb($|[ \n])/ {
           sub(/(^|\n)Types:[^\n]*/, "\nTypes: deb-src"); print }' \
      "$f" > "$apt_dir/parts/$(basename "$f")"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    sed -n 's/^deb \(.*debian.*\)/deb-src \1/p' "$f" > "$apt_dir/parts/$(basename "$f" .list).list"
  done
  debsrc_apt_opts=(-q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt_dir/parts"
                   -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache"
                   -o Acquire::Retries=2 -o Acquire::http::Timeout=30)
  # As root apt downloads as the _apt user, who may not write to <dir>.
  [ "$(id -u)" = 0 ] && debsrc_apt_opts+=(-o APT::Sandbox::User=root)
  # apt-get update exits 0 when an index could not be fetched: read its log.
  apt-get "${debsrc_apt_opts[@]}" update > "$2" 2>&1
  if grep -qE '^(E|W):' "$2"; then
    echo "note: apt-get update of the deb-src entries had errors (a source that cannot be fetched is skipped):"
    grep -E '^(E|W):' "$2" | head -3
  fi
}

debsrc_fetch() {
  local d=$2
  rm -rf "$d" && mkdir -p "$d"
  # Only the upstream tarball is used: a Debian part the mirror no longer
  # has (a superseded security update's .dsc) fails apt-get, not us.
  (cd "$d" && apt-get "${debsrc_apt_opts[@]}" source --download-only "$1") > "$3" 2>&1
  compgen -G "$d/*.orig.tar.*" > /dev/null &&
    tar -xf "$d"/*.orig.tar.* -C "$d" 2>> "$3" || return 1
  find "$d" -mindepth 1 -maxdepth 1 -type d | head -1
}
