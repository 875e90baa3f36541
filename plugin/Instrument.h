//===- Instrument.h - SpikeTrap entry/exit instrumentation ------*- C++ -*-===//

#ifndef SPIKETRAP_INSTRUMENT_H
#define SPIKETRAP_INSTRUMENT_H

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class GlobalVariable;
class StructType;
class Triple;
} // namespace llvm

namespace spiketrap {

/// An address that identifies the current activation of the function.
llvm::Value *emitFrame(llvm::IRBuilder<> &B, const llvm::Triple &TT);

/// Loads the descriptor's adaptive off switch (volatile: the runtime writes
/// it from any thread).
llvm::Value *emitLoadOff(llvm::IRBuilder<> &B, llvm::GlobalVariable *Desc,
                         llvm::StructType *DescTy);

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
