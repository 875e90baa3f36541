# cmake --install <build> --prefix <p>: a relocatable tree. The plugins go to
# lib/spiketrap (they are not libraries to link), the CMake package, the
# pkg-config file and the wrappers find everything relative to themselves.
set(SPIKETRAP_CLANG ${LLVM_TOOLS_BINARY_DIR}/clang)
set(SPIKETRAP_CLANGXX ${LLVM_TOOLS_BINARY_DIR}/clang++)
set(_gen ${CMAKE_BINARY_DIR}/install-files)
# The runtime's ABI marker (runtime/include/spiketrap.h): the packages name
# it to pull the runtime into executables whose own code references none.
file(STRINGS runtime/include/spiketrap.h _abi REGEX "^#define SPIKETRAP_ABI_VERSION ")
string(REGEX MATCH "[0-9]+" SPIKETRAP_ABI_VERSION "${_abi}")
set(SPIKETRAP_ABI_MARKER __spiketrap_abi_v${SPIKETRAP_ABI_VERSION})
configure_file(cmake/SpikeTrapConfig.cmake.in ${_gen}/SpikeTrapConfig.cmake @ONLY)
configure_file(cmake/spiketrap.pc.in ${_gen}/spiketrap.pc @ONLY)
configure_file(cmake/spiketrap-noop.pc.in ${_gen}/spiketrap-noop.pc @ONLY)
configure_file(cmake/spiketrap-clang.in ${_gen}/spiketrap-clang @ONLY
  FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
  GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
include(CMakePackageConfigHelpers)
write_basic_package_version_file(${_gen}/SpikeTrapConfigVersion.cmake
  COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)

install(TARGETS SpikeTrap SpikeTrapClang LIBRARY DESTINATION lib/spiketrap)
install(FILES ${CMAKE_BINARY_DIR}/lib/libspiketrap.a DESTINATION lib)
install(TARGETS spiketrap_noop ARCHIVE DESTINATION lib)
install(FILES runtime/include/spiketrap.h runtime/include/spiketrap_descriptor.inc
        DESTINATION include)
install(PROGRAMS utils/spiketrap-report ${_gen}/spiketrap-clang DESTINATION bin)
# bin/spiketrap-report is a launcher: its package is a private module of the
# tool, beside its data (the HTML page and the schema), as Debian's Python
# policy places an application's own modules.
install(DIRECTORY utils/spiketrap_report DESTINATION share/spiketrap
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(CODE "file(CREATE_LINK spiketrap-clang
  \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/bin/spiketrap-clang++\" SYMBOLIC)")
install(FILES cmake/exports.list utils/spiketrap-report.html
  docs/report-schema.json DESTINATION share/spiketrap)
install(FILES README.md DESTINATION share/doc/spiketrap)
install(DIRECTORY docs/ DESTINATION share/doc/spiketrap/docs)
install(FILES ${_gen}/SpikeTrapConfig.cmake
  ${_gen}/SpikeTrapConfigVersion.cmake cmake/SpikeTrapInstrumentProject.cmake
  DESTINATION lib/cmake/SpikeTrap)
install(FILES ${_gen}/spiketrap.pc ${_gen}/spiketrap-noop.pc
  DESTINATION lib/pkgconfig)

# cpack -G DEB (from the build directory): spiketrap_<version>_<arch>.deb for
# /usr, depending on the clang the plugin was built for.
set(CPACK_PACKAGE_NAME spiketrap)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "CPU spike detector: clang ${LLVM_VERSION_MAJOR} pass plugin, runtime and compiler wrappers")
set(CPACK_PACKAGE_CONTACT "spiketrap developers <dev@spiketrap>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "clang-${LLVM_VERSION_MAJOR}, libc6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, pkg-config")
include(CPack)
