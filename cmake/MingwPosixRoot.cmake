# Makes a --sysroot of links in which clang finds mingw-w64's libstdc++ with
# POSIX threads. Debian's mingw-w64 holds libstdc++ twice, with win32
# threads (no std::thread or std::mutex in GCC 12) and with POSIX threads
# (winpthreads); clang takes the first unless a root shows it only the
# second. Included at configure time (build-mingw/mingw-posix) and by the
# install (lib/x86_64-w64-mingw32/mingw-posix), with _spiketrap_root (the
# root to make), _spiketrap_gcc (/usr/lib/gcc/<triple>/<N>-posix) and
# _spiketrap_triple set. The links are absolute: a moved prefix keeps them.
file(MAKE_DIRECTORY ${_spiketrap_root}/lib/gcc/${_spiketrap_triple})
get_filename_component(_spiketrap_gcc_name ${_spiketrap_gcc} NAME)
file(CREATE_LINK ${_spiketrap_gcc}
  ${_spiketrap_root}/lib/gcc/${_spiketrap_triple}/${_spiketrap_gcc_name} SYMBOLIC)
file(CREATE_LINK /usr/${_spiketrap_triple}
  ${_spiketrap_root}/${_spiketrap_triple} SYMBOLIC)
