# Cross-compiles the runtime for 64-bit Windows (mingw-w64) with the host's
# clang and lld (cmake -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-w64-mingw32.cmake
#  -DSPIKETRAP_RUNTIME_ONLY=ON; utils/test-windows.sh). Debian's mingw-w64
# package provides the headers and import libraries in /usr/x86_64-w64-mingw32.
# Also included by spiketrap-windows.cmake, installed beside it.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER_TARGET x86_64-w64-mingw32)
set(CMAKE_CXX_COMPILER_TARGET x86_64-w64-mingw32)
set(CMAKE_ASM_COMPILER_TARGET x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# The compilers and LLVM's tools, from a source tree. An installed copy has
# no utils/: the includer sets the compilers (the prefix's wrappers), and
# CMake finds llvm-ar and the rest for their clang.
if(NOT EXISTS ${CMAKE_CURRENT_LIST_DIR}/../utils/llvm-version.sh)
  return()
endif()
# The default LLVM is spelled once, in utils/llvm-version.sh.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../utils/llvm-version.sh _spiketrap_llvm
  REGEX "^LLVM_VERSION=")
string(REGEX MATCH "[0-9]+" _spiketrap_llvm "${_spiketrap_llvm}")
set(SPIKETRAP_LLVM_VERSION ${_spiketrap_llvm} CACHE STRING "clang-<N> to cross-compile with")
set(CMAKE_C_COMPILER clang-${SPIKETRAP_LLVM_VERSION})
set(CMAKE_CXX_COMPILER clang++-${SPIKETRAP_LLVM_VERSION})
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld")
# COFF objects: LLVM's tools, whatever the host's binutils are.
set(_llvm /usr/lib/llvm-${SPIKETRAP_LLVM_VERSION}/bin)
set(CMAKE_AR ${_llvm}/llvm-ar CACHE FILEPATH "")
set(CMAKE_RANLIB ${_llvm}/llvm-ranlib CACHE FILEPATH "")
set(CMAKE_NM ${_llvm}/llvm-nm CACHE FILEPATH "")
set(CMAKE_OBJCOPY ${_llvm}/llvm-objcopy CACHE FILEPATH "")
