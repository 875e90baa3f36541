#!/usr/bin/env bash
# Installs what spiketrap needs on Debian 12, as root (or with sudo), once:
# packages already there are not installed again. Extra package names given
# as arguments are installed the same way (utils/bench/setup.sh uses that).
set -euo pipefail
. "$(dirname "$0")/llvm-version.sh"
pkgs=(clang-$LLVM_VERSION llvm-$LLVM_VERSION-dev llvm-$LLVM_VERSION-tools
      libfmt-dev cmake ninja-build libgtest-dev python3 binutils)
# The install tests build projects with make (CMake's Unix Makefiles, the
# make wrapper) and pkg-config; a fortified object is built with gcc. A
# minimal Debian has none of them (utils/test-minimal-debian.sh).
pkgs+=(make pkg-config gcc)
# The HTML report's test renders the page in headless Chromium.
pkgs+=(chromium)
# The report tool's unit tests hold its schema check to jsonschema's verdict
# (the tool itself needs only Python's standard library).
pkgs+=(python3-jsonschema)
# The sanitizer builds (SANITIZE=...) need clang's sanitizer runtimes.
pkgs+=(libclang-rt-$LLVM_VERSION-dev)
# The clang front-end plugin (SpikeTrapClang.so) needs clang's headers and
# CMake package.
pkgs+=(libclang-$LLVM_VERSION-dev)
# A shared-library test links with clang -fuse-ld=lld (lld's symbol
# versioning differs from GNU ld's); a minimal Debian lacks it.
pkgs+=(lld-$LLVM_VERSION)
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "spiketrap setup: installing ${missing[*]}"
  # Wait for another apt-get/dpkg instead of failing at once.
  apt=(apt-get -o DPkg::Lock::Timeout=600)
  $SUDO "${apt[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO "${apt[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
