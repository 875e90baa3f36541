//===- SplitBody.h - Move an instrumented function's body out ---*- C++ -*-===//
#ifndef SPIKETRAP_SPLITBODY_H
#define SPIKETRAP_SPLITBODY_H

namespace llvm {
class Function;
class Triple;
} // namespace llvm

#include <optional>

namespace spiketrap {

/// Internal functions of F's type and attributes, never inlined.
struct SplitFunctions {
  llvm::Function *Body;  // `<F>.spiketrap`: F's blocks and debug info
  llvm::Function *Timed; // `<F>.spiketrap_timed`: empty, for the timed path
};

/// Moves \p F's blocks, arguments' uses and debug info into Body, leaving F
/// empty for its thunk; F and Timed get artificial renamed copies of F's
/// subprogram. Returns nothing, changing nothing, when the body cannot run in
/// a frame of its own or the target does not guarantee musttail.
std::optional<SplitFunctions> splitBody(llvm::Function &F,
                                        const llvm::Triple &TT);

} // namespace spiketrap

#endif // SPIKETRAP_SPLITBODY_H
