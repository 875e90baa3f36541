//===- Instrument.h - SpikeTrap entry/exit instrumentation ------*- C++ -*-===//

#ifndef SPIKETRAP_INSTRUMENT_H
#define SPIKETRAP_INSTRUMENT_H

#include "llvm/IR/PassManager.h"

namespace spiketrap {

/// Calls __spiketrap_enter at the entry and __spiketrap_exit before every
/// return of each function the Selector picks, passing its descriptor and
/// frame, and explains every decision in an optimization remark.
struct SpikeTrapPass : llvm::PassInfoMixin<SpikeTrapPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // At -O0 every function is optnone; instrument it anyway.
  static bool isRequired() { return true; }
};

} // namespace spiketrap

#endif // SPIKETRAP_INSTRUMENT_H
