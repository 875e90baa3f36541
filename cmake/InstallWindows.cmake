# cmake --install of the Windows runtime-only build, into the prefix the
# host build installed into: it adds only files of its own, in the target's
# directory as clang's per-target runtime directories are, so the host's
# lib/libspiketrap.a stays. The wrappers link lib/<triple>/libspiketrap.a
# for --target=<triple>; lib/cmake/SpikeTrap/spiketrap-windows.cmake is a
# toolchain file that compiles with them.
set(_spiketrap_triple ${CMAKE_SYSTEM_PROCESSOR}-w64-mingw32)
install(FILES ${CMAKE_BINARY_DIR}/lib/libspiketrap.a
  DESTINATION lib/${_spiketrap_triple})
install(FILES cmake/spiketrap-windows.cmake cmake/x86_64-w64-mingw32.cmake
  DESTINATION lib/cmake/SpikeTrap)

# The newest POSIX-threads GCC of mingw-w64, for the root of links
# (MingwPosixRoot.cmake) in the build and in the install.
file(GLOB _spiketrap_gccs LIST_DIRECTORIES true
  /usr/lib/gcc/${_spiketrap_triple}/*-posix)
list(SORT _spiketrap_gccs COMPARE NATURAL)
list(POP_BACK _spiketrap_gccs _spiketrap_gcc)
if(NOT _spiketrap_gcc)
  message(STATUS "spiketrap: no /usr/lib/gcc/${_spiketrap_triple}/*-posix: "
    "C++ programs get libstdc++ with win32 threads (no std::thread)")
  return()
endif()
set(_spiketrap_root ${CMAKE_BINARY_DIR}/mingw-posix)
include(cmake/MingwPosixRoot.cmake)
install(CODE "
  set(_spiketrap_root \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/${_spiketrap_triple}/mingw-posix\")
  set(_spiketrap_gcc \"${_spiketrap_gcc}\")
  set(_spiketrap_triple ${_spiketrap_triple})
  include(\"${CMAKE_CURRENT_SOURCE_DIR}/cmake/MingwPosixRoot.cmake\")")
