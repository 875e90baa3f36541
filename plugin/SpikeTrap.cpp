//===- SpikeTrap.cpp - SpikeTrap pass plugin entry point ------------------===//
//
// Load with `clang -fplugin=SpikeTrap.so -fpass-plugin=SpikeTrap.so` (the first
// flag lets -mllvm reach our options before LLVM 22) or run it alone with
// `opt -load-pass-plugin=SpikeTrap.so -passes=spiketrap`.
//
//===----------------------------------------------------------------------===//

#include "Instrument.h"
#include "KeepOutOfLine.h"
#include "LLVMCompat.h"

using namespace llvm;
using namespace spiketrap;

static void registerCallbacks(PassBuilder &PB) {
  // After inlining, like -finstrument-functions-after-inlining: inlined
  // callees are timed as part of their caller.
  registerOptimizerLastEP(
      PB, [](ModulePassManager &MPM) { MPM.addPass(SpikeTrapPass()); });
  // Before inlining, so that functions with a threshold attribute survive it.
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SpikeTrapKeepPass());
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "spiketrap")
          MPM.addPass(SpikeTrapPass());
        else if (Name == "spiketrap-keep")
          MPM.addPass(SpikeTrapKeepPass());
        else
          return false;
        return true;
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "SpikeTrap", LLVM_VERSION_STRING,
          registerCallbacks};
}
