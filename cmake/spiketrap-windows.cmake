# A toolchain file for a CMake project built for Windows with spiketrap
# (docs/install.md, "Windows"): the project's own CMakeLists.txt is
# unchanged. Every C and C++ file compiles with the host's plugin for
# x86_64-w64-mingw32; every executable links the Windows runtime statically.
# Installed (lib/cmake/SpikeTrap, by the Windows runtime-only build into the
# host's prefix), it needs nothing else: the prefix's wrappers compile and
# link.
#   cmake -S app -B app-win -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/SpikeTrap/spiketrap-windows.cmake
# In a source tree, it takes the host build and the Windows runtime's build:
#   cmake -S app -B app-win -DCMAKE_TOOLCHAIN_FILE=<spiketrap>/cmake/spiketrap-windows.cmake \
#     -DSPIKETRAP_BUILD=<spiketrap>/build -DSPIKETRAP_WINDOWS_BUILD=<spiketrap>/build-mingw
include(${CMAKE_CURRENT_LIST_DIR}/x86_64-w64-mingw32.cmake)
if(NOT EXISTS ${CMAKE_CURRENT_LIST_DIR}/../runtime/include/spiketrap.h)
  # The wrappers add the plugins, the root of links, lld and the runtime for
  # --target=x86_64-w64-mingw32, which CMake passes (CMAKE_<LANG>_COMPILER_TARGET).
  get_filename_component(_spiketrap_prefix ${CMAKE_CURRENT_LIST_DIR}/../../.. ABSOLUTE)
  set(CMAKE_C_COMPILER ${_spiketrap_prefix}/bin/spiketrap-clang)
  set(CMAKE_CXX_COMPILER ${_spiketrap_prefix}/bin/spiketrap-clang++)
  return()
endif()
set(SPIKETRAP_BUILD "" CACHE PATH "the host build (its lib/SpikeTrap.so)")
set(SPIKETRAP_WINDOWS_BUILD "" CACHE PATH "the Windows runtime's build (lib/libspiketrap.a)")
# Try-compiles see the two paths too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SPIKETRAP_BUILD SPIKETRAP_WINDOWS_BUILD)
foreach(_d SPIKETRAP_BUILD SPIKETRAP_WINDOWS_BUILD)
  if(NOT ${_d})
    message(FATAL_ERROR "spiketrap-windows.cmake: set -D${_d}=<dir>")
  endif()
endforeach()
# POSIX-threads libstdc++ (std::thread, std::mutex): the root of links the
# Windows build makes (cmake/MingwPosixRoot.cmake).
set(_spiketrap_root ${SPIKETRAP_WINDOWS_BUILD}/mingw-posix)
if(EXISTS ${_spiketrap_root})
  set(CMAKE_SYSROOT ${_spiketrap_root})
endif()
set(_spiketrap_flags "-fpass-plugin=${SPIKETRAP_BUILD}/lib/SpikeTrap.so -I${CMAKE_CURRENT_LIST_DIR}/../runtime/include")
set(CMAKE_C_FLAGS_INIT "${_spiketrap_flags}")
set(CMAKE_CXX_FLAGS_INIT "${_spiketrap_flags}")
# lld's COFF linker takes archives in any order: the runtime may come first.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fuse-ld=lld -static -pthread ${SPIKETRAP_WINDOWS_BUILD}/lib/libspiketrap.a -lsynchronization")
