# Cross-compiles the runtime for AArch64 Linux with the host's clang
# (cmake -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#  -DSPIKETRAP_RUNTIME_ONLY=ON; utils/test-aarch64.sh). Clang finds the
# Debian cross sysroot (/usr/aarch64-linux-gnu, from libc6-dev-arm64-cross
# and libstdc++-12-dev-arm64-cross) by itself.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
# The default LLVM is spelled once, in utils/llvm-version.sh.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../utils/llvm-version.sh _spiketrap_llvm
  REGEX "^LLVM_VERSION=")
string(REGEX MATCH "[0-9]+" _spiketrap_llvm "${_spiketrap_llvm}")
set(SPIKETRAP_LLVM_VERSION ${_spiketrap_llvm} CACHE STRING "clang-<N> to cross-compile with")
set(CMAKE_C_COMPILER clang-${SPIKETRAP_LLVM_VERSION})
set(CMAKE_CXX_COMPILER clang++-${SPIKETRAP_LLVM_VERSION})
set(CMAKE_C_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_CXX_COMPILER_TARGET aarch64-linux-gnu)
set(CMAKE_ASM_COMPILER_TARGET aarch64-linux-gnu)
# The partial link and the localizing need tools that read AArch64 objects:
# LLVM's own, whatever the host's binutils are.
set(_llvm /usr/lib/llvm-${SPIKETRAP_LLVM_VERSION}/bin)
set(CMAKE_AR ${_llvm}/llvm-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${_llvm}/llvm-ranlib CACHE FILEPATH "")
set(CMAKE_NM ${_llvm}/llvm-nm CACHE FILEPATH "")
set(CMAKE_OBJCOPY ${_llvm}/llvm-objcopy CACHE FILEPATH "")
find_program(CMAKE_LINKER NAMES aarch64-linux-gnu-ld ld.lld-${SPIKETRAP_LLVM_VERSION} ld.lld
  REQUIRED)
