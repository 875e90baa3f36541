//===- LLVMCompat.h - LLVM version differences ------------------*- C++ -*-===//
//
// The only place that knows which LLVM release the plugin is built against.
//
//===----------------------------------------------------------------------===//

#ifndef SPIKETRAP_LLVMCOMPAT_H
#define SPIKETRAP_LLVMCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include <utility>

// LLVM 22 moved the plugin interface out of the Passes library.
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

namespace spiketrap {

/// Calls \p AddPasses at the end of the optimization pipeline. LLVM 20 added
/// the LTO phase to the callback; we instrument in every phase alike.
template <typename Fn>
void registerOptimizerLastEP(llvm::PassBuilder &PB, Fn AddPasses) {
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback(
      [AddPasses](llvm::ModulePassManager &MPM, llvm::OptimizationLevel,
                  llvm::ThinOrFullLTOPhase) { AddPasses(MPM); });
#else
  PB.registerOptimizerLastEPCallback(
      [AddPasses](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
        AddPasses(MPM);
      });
#endif
}

/// The line of a SpecialCaseList::inSectionBlame result (0: no match). It is
/// the line alone up to LLVM 20 and a (file index, line) pair since 21;
/// overloads, so no version number has to be right.
inline unsigned getBlameLine(unsigned Line) { return Line; }
inline unsigned getBlameLine(std::pair<unsigned, unsigned> FileAndLine) {
  return FileAndLine.second;
}

} // namespace spiketrap

#endif // SPIKETRAP_LLVMCOMPAT_H
