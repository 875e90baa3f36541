# Sourced by the scripts in utils/: the LLVM they build and test with is
# $LLVM_VERSION, by default the one below, the only place it is spelled
# (utils/bench/common.py and cmake/aarch64-linux-gnu.cmake read it from
# here). .ci/run tests 22 as well.
LLVM_VERSION=${LLVM_VERSION:-19}
export LLVM_VERSION
