# cmake -DCMAKE_PROJECT_INCLUDE=<prefix>/lib/cmake/SpikeTrap/SpikeTrapInstrumentProject.cmake
# instruments every target of a project without editing it: CMake includes
# this file after each project() call, and every target defined after it in
# that directory and below links SpikeTrap::SpikeTrap (executables get the
# runtime, libraries the compile options). Configure with the clang the
# package was built for (CC=clang-N CXX=clang++-N).
find_package(SpikeTrap CONFIG REQUIRED PATHS "${CMAKE_CURRENT_LIST_DIR}"
  NO_DEFAULT_PATH)
link_libraries(SpikeTrap::SpikeTrap)
