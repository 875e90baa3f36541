#!/usr/bin/env bash
# Installs what spiketrap needs on Debian 12, as root (or with sudo), once:
# packages already there are not installed again.
set -euo pipefail
LLVM_VERSION=${LLVM_VERSION:-19}
pkgs=(clang-$LLVM_VERSION llvm-$LLVM_VERSION-dev llvm-$LLVM_VERSION-tools
      libfmt-dev cmake ninja-build libgtest-dev python3 binutils)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "spiketrap setup: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
