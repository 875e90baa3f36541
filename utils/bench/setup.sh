#!/usr/bin/env bash
# Installs what only the benchmark suite needs (Debian 12), on top of
# utils/setup.sh: the XRay runtime, uftrace, valgrind (instruction counts),
# GNU time (peak memory) and npm (to fetch the SQLite amalgamation).
set -euo pipefail
LLVM_VERSION=${LLVM_VERSION:-19}
pkgs=(libclang-rt-$LLVM_VERSION-dev uftrace valgrind time)
# nodesource's nodejs ships npm itself and conflicts with Debian's npm.
command -v npm >/dev/null || pkgs+=(npm)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "spiketrap bench setup: installing ${missing[*]}"
  $SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=600 \
    install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
