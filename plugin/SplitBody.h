//===- SplitBody.h - Move an instrumented function's body out ---*- C++ -*-===//
#ifndef SPIKETRAP_SPLITBODY_H
#define SPIKETRAP_SPLITBODY_H

namespace llvm {
class Function;
class Triple;
} // namespace llvm

namespace spiketrap {

/// Moves \p F's blocks, arguments' uses and debug info into a new internal
/// function `<F>.spiketrap` with F's type and attributes, leaving F empty for
/// its thunk. Returns null, changing nothing, when the body cannot run in a
/// frame of its own or the target does not guarantee musttail.
llvm::Function *splitBody(llvm::Function &F, const llvm::Triple &TT);

} // namespace spiketrap

#endif // SPIKETRAP_SPLITBODY_H
