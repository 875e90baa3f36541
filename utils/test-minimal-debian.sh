#!/usr/bin/env bash
# Runs the README's two commands on a minimal Debian 12, as a new user would:
# debootstrap (minbase, plus git and ca-certificates only) into a folder,
# clone this checkout's HEAD into spiketrap/ there with the new system's git,
# then utils/demo.sh and utils/test.sh inside a chroot. It finds what
# utils/setup.sh forgets to install: the development machines have it all.
# Not run by CI: it downloads a system and LLVM and builds everything (about
# half an hour on 2 cores). As root, on a Debian or Ubuntu host.
#
#   utils/test-minimal-debian.sh [FOLDER]   (default /var/tmp/spiketrap-minimal-debian)
#   MIRROR=http://deb.debian.org/debian   the Debian mirror
#   KEEP=1                                keep FOLDER afterwards (it is removed)
#   TEST_RUNS=2                           run utils/test.sh that many times
# Exits with the status of the first command that failed; the output of each
# step is on stdout, the last lines of the test runs say how many passed.
set -euo pipefail
cd "$(dirname "$0")/.."
Root=${1:-/var/tmp/spiketrap-minimal-debian}
Mirror=${MIRROR:-http://deb.debian.org/debian}
Runs=${TEST_RUNS:-1}
[ "$(id -u)" = 0 ] || { echo "test-minimal-debian: run as root" >&2; exit 1; }
command -v debootstrap >/dev/null ||
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends debootstrap >/dev/null

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    umount -R "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}" || true
  done
  [ "${KEEP:-0}" = 1 ] || rm -rf --one-file-system "$Root"
}
trap cleanup EXIT
mount_in() { # mount_in TARGET MOUNT-ARGS...
  mkdir -p "$Root/$1"
  mount "${@:2}" "$Root/$1"
  mounted+=("$Root/$1")
}

rm -rf --one-file-system "$Root"
echo "== debootstrap bookworm (minbase, git, ca-certificates) into $Root"
debootstrap --variant=minbase --include=git,ca-certificates bookworm "$Root" "$Mirror" >/dev/null
cp /etc/resolv.conf "$Root/etc/resolv.conf"
mount_in proc -t proc proc
mount_in sys --rbind /sys
mount --make-rslave "$Root/sys"
mount_in dev --rbind /dev
mount --make-rslave "$Root/dev"
# The tests' temporary files and Chromium's shared memory stay inside.
mount_in tmp -t tmpfs tmpfs

# What a user clones: this checkout's HEAD (commit your changes first).
git bundle create "$Root/root/spiketrap.bundle" HEAD >/dev/null 2>&1
echo "== cloning $(git rev-parse --short HEAD) into /root/spiketrap"
in_chroot() {
  chroot "$Root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    ${JOBS:+JOBS=$JOBS} bash -c "$1"
}
in_chroot 'cd /root && git -c advice.detachedHead=false clone -q spiketrap.bundle spiketrap'
echo "== utils/demo.sh"
start=$SECONDS
in_chroot 'cd /root/spiketrap && utils/demo.sh'
echo "== utils/demo.sh passed in $((SECONDS - start)) s"
for ((run = 1; run <= Runs; run++)); do
  echo "== utils/test.sh (run $run of $Runs)"
  start=$SECONDS
  in_chroot 'cd /root/spiketrap && utils/test.sh'
  echo "== utils/test.sh passed in $((SECONDS - start)) s"
done
