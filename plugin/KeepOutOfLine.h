//===- KeepOutOfLine.h - Keep attributed functions as frames ----*- C++ -*-===//

#ifndef SPIKETRAP_KEEPOUTOFLINE_H
#define SPIKETRAP_KEEPOUTOFLINE_H

#include "llvm/IR/PassManager.h"

namespace spiketrap {

/// Runs before inlining: marks functions that carry a SPIKETRAP_* attribute
/// asking for them to be timed `noinline`, since SpikeTrapPass runs after
/// inlining and an inlined function has no entry and exit of its own.
struct SpikeTrapKeepPass : llvm::PassInfoMixin<SpikeTrapKeepPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace spiketrap

#endif // SPIKETRAP_KEEPOUTOFLINE_H
